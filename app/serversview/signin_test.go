package serversview

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/demo"
	"github.com/elicitdesk/elicitdesk/servers/signin"
	"github.com/elicitdesk/elicitdesk/servers/signin/signintest"
)

// heldBrowser is a browser stand-in the test holds: it reports each URL
// it is asked to open, then waits for release to approve, or for the
// sign-in's end.
type heldBrowser struct {
	opened  chan string
	release chan struct{}
}

func newHeldBrowser() *heldBrowser {
	return &heldBrowser{opened: make(chan string, 1), release: make(chan struct{})}
}

func (b *heldBrowser) Open(ctx context.Context, url string) error {
	b.opened <- url
	select {
	case <-b.release:
		return signintest.Follow(nil, nil)(ctx, url)
	case <-ctx.Done():
		return nil // like a desktop browser, which never says
	}
}

// newSignInHarness shows the window over one remote server, "guarded",
// behind signintest's sign-in; setup sets the server's knobs.
func newSignInHarness(t *testing.T, b signin.Browser, setup func(*signintest.Server)) *harness {
	t.Helper()
	f := signintest.New(t)
	f.MCP = server.NewStreamableHTTPServer(demo.NewServer())
	if setup != nil {
		setup(f)
	}
	signer := signin.New(signin.Options{Store: signin.NewMemory(), Browser: b})
	h := newHarnessWith(t, configBytes(t, config.Server{Name: "guarded", URL: f.URL(), Transport: config.TransportHTTP}), signer)
	h.waitState("guarded", servers.StateNeedsSignIn)
	h.selectServer("guarded")
	return h
}

// shown says which of the state row's buttons show.
func (h *harness) shown() string {
	var on []string
	for _, b := range []*look.Button{h.w.detail.retry, h.w.detail.signIn, h.w.detail.cancel, h.w.detail.signOut} {
		if b.Visible() {
			on = append(on, b.Text)
		}
	}
	return strings.Join(on, ", ")
}

// wantDetail checks the state, the buttons and the problem shown.
func (h *harness) wantDetail(state, buttons, problem string) {
	h.t.Helper()
	d := h.w.detail
	if !strings.HasPrefix(d.state.Text, state) || h.shown() != buttons || d.problem.Text != problem || d.problem.Visible() != (problem != "") {
		h.t.Errorf("detail shows %q with [%s] and problem %q,\nwant %q… with [%s] and %q", d.state.Text, h.shown(), d.problem.Text, state, buttons, problem)
	}
}

// A server that needs a sign-in says so in the list and the Overview; Sign
// in waits for the browser with Cancel, the server connects once the
// person approves, and Sign out makes it need a sign-in again.
func TestSignInFromTheWindow(t *testing.T) {
	b := newHeldBrowser()
	h := newSignInHarness(t, b, nil)
	if got := stateLabel(h.row("guarded").state()); got != "Sign in needed" {
		t.Errorf("the list says %q", got)
	}
	h.wantDetail("Sign in needed since", "Sign in", "The server needs you to sign in. Sign in opens your browser.")
	if got := notReadyText("guarded", servers.StateNeedsSignIn); !strings.Contains(h.w.tools.status.Text, got) {
		t.Errorf("the tools pane says %q", h.w.tools.status.Text)
	}

	test.Tap(h.w.detail.signIn)
	<-b.opened
	h.waitFor("waiting for the browser", func() bool { return h.w.detail.state.Text == "Waiting for the browser…" })
	h.wantDetail("Waiting for the browser…", "Cancel", "Sign in to the server in your browser and allow Elicit Desk, then come back here. Cancel stops waiting.")
	if h.w.detail.problem.Importance == widget.DangerImportance {
		t.Error("waiting for the browser is shown as an error")
	}

	close(b.release)
	h.waitState("guarded", servers.StateReady)
	h.waitFor("Sign out", func() bool { return h.w.detail.signOut.Visible() })
	h.wantDetail("Ready since", "Sign out", "")

	test.Tap(h.w.detail.signOut)
	h.waitFor("sign in needed again", func() bool {
		r := h.row("guarded")
		return r.state() == servers.StateNeedsSignIn && !r.Status.SignedIn
	})
	h.wantDetail("Sign in needed since", "Sign in", "The server needs you to sign in. Sign in opens your browser.")
}

// Cancel ends a sign-in that waits for the browser, and the server needs
// a sign-in as before: cancelling is no failure.
func TestSignInCancel(t *testing.T) {
	b := newHeldBrowser()
	h := newSignInHarness(t, b, nil)
	test.Tap(h.w.detail.signIn)
	<-b.opened
	h.waitFor("Cancel", func() bool { return h.w.detail.cancel.Visible() })
	test.Tap(h.w.detail.cancel)
	h.waitFor("the sign-in to end", func() bool { return h.w.detail.signIn.Visible() })
	h.wantDetail("Sign in needed since", "Sign in", "The server needs you to sign in. Sign in opens your browser.")
}

// A failed sign-in says why in plain words, with the chain behind
// Details, offers Sign in again, and shows no secret.
func TestSignInFailureShown(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(*signintest.Server)
		want  string
	}{
		{"issuer mismatch", func(f *signintest.Server) { f.Issuer = "https://elsewhere.example" },
			`Sign-in failed: the authorization server's metadata names another issuer ("https://elsewhere.example"`},
		{"token endpoint answering garbage", func(f *signintest.Server) {
			f.TokenReply = func(w http.ResponseWriter) bool { fmt.Fprint(w, "<html>SECRET oops</html>"); return true }
		}, "Sign-in failed: the authorization server did not give a token: its answer is not a token."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newSignInHarness(t, signin.BrowserFunc(signintest.Follow(nil, nil)), tc.setup)
			test.Tap(h.w.detail.signIn)
			h.waitFor("the failure", func() bool { return h.w.detail.state.Text == "Sign-in failed" })
			d := h.w.detail
			if !strings.HasPrefix(d.problem.Text, tc.want) || h.shown() != "Sign in again" || d.problem.Importance != widget.DangerImportance {
				t.Errorf("shows %q with [%s], want %q with [Sign in again]", d.problem.Text, h.shown(), tc.want)
			}
			if !d.more.Visible() || !strings.Contains(d.details.Text, "signing in to ") {
				t.Errorf("details %q (shown %v)", d.details.Text, d.more.Visible())
			}
			if strings.Contains(d.problem.Text+d.details.Text, signintest.SecretMark) {
				t.Errorf("a secret is shown: %q, %q", d.problem.Text, d.details.Text)
			}
			if r := h.row("guarded"); r.state() != servers.StateNeedsSignIn || r.Status.SignedIn {
				t.Errorf("after a failed sign-in: %+v", r.Status)
			}
		})
	}
}
