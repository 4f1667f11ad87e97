package servers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/demo"
	"github.com/elicitdesk/elicitdesk/servers/signin"
	"github.com/elicitdesk/elicitdesk/servers/signin/signintest"
)

// signInHarness is a manager with a Signer, over an authorization server
// and the demo MCP server it protects, with a log the test reads.
type signInHarness struct {
	t      *testing.T
	f      *signintest.Server
	m      *Manager
	signer *signin.Signer
	clock  *fakeClock
	logged *lockedBuffer
	cfg    config.Server
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newSignInHarness serves the demo over transport behind signintest;
// setup sets its knobs; browser nil is one that approves at once. The
// manager is not started: call start.
func newSignInHarness(t *testing.T, transport config.Transport, setup func(*signintest.Server), browser signin.Browser) *signInHarness {
	h := &signInHarness{t: t, f: signintest.New(t), clock: &fakeClock{now: time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)}, logged: &lockedBuffer{}}
	h.cfg = config.Server{Name: "guarded", URL: h.f.URL(), Transport: transport}
	h.f.MCP = server.NewStreamableHTTPServer(demo.NewServer())
	if transport == config.TransportSSE {
		h.f.Resource = h.f.RS.URL // the resource covers /sse and /message
		h.f.MCP = server.NewSSEServer(demo.NewServer(), server.WithBaseURL(h.f.RS.URL))
		h.cfg.URL = h.f.RS.URL + "/sse"
	}
	if setup != nil {
		setup(h.f)
	}
	if browser == nil {
		browser = signin.BrowserFunc(signintest.Follow(nil, nil))
	}
	log := slog.New(slog.NewTextHandler(h.logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h.signer = signin.New(signin.Options{Store: signin.NewMemory(), Browser: browser, Now: h.clock.Now, Log: log})
	h.m = NewManager(NewRouter(DefaultLimits, log), log, nil)
	h.m.UseSigner(h.signer)
	t.Cleanup(func() {
		h.m.Close()
		if strings.Contains(h.logged.String(), signintest.SecretMark) {
			t.Errorf("a secret reached the log:\n%s", h.logged)
		}
	})
	return h
}

func (h *signInHarness) start() { h.m.Apply(&config.File{Servers: []config.Server{h.cfg}}) }

// waitState waits until the server is in state and returns its status.
func (h *signInHarness) waitState(state State) Status {
	h.t.Helper()
	waitFor(h.t, h.m, string(state), func() bool { return statusOf(h.m, h.cfg.Name).State == state })
	return statusOf(h.m, h.cfg.Name)
}

// TestManagerSignIn goes the app's way to a server behind sign-in, over
// both remote transports: it needs a sign-in and is not retried, SignIn
// (the browser stand-in approving) connects it at once and its tools
// list, an expired token is refreshed under the connection, and after
// SignOut it needs a sign-in again.
func TestManagerSignIn(t *testing.T) {
	for _, transport := range []config.Transport{config.TransportHTTP, config.TransportSSE} {
		t.Run(string(transport), func(t *testing.T) {
			h := newSignInHarness(t, transport, nil, nil)
			h.start()
			st := h.waitState(StateNeedsSignIn)
			if !st.RetryAt.IsZero() || !st.FailedSince.IsZero() || st.SignedIn || h.m.Retry(h.cfg.Name) {
				t.Errorf("a server needing a sign-in: %+v, or Retry woke it", st)
			}
			if got, want := Explain(st.Err, "").Summary, "The server needs you to sign in. Sign in opens your browser."; got != want {
				t.Errorf("explained as %q, want %q", got, want)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var phases []signin.Phase
			if err := h.m.SignIn(ctx, h.cfg.Name, func(s signin.Status) { phases = append(phases, s.Phase) }); err != nil {
				t.Fatal(err)
			}
			if want := []signin.Phase{signin.WaitingForBrowser, signin.SignedIn}; fmt.Sprint(phases) != fmt.Sprint(want) {
				t.Errorf("phases %v, want %v", phases, want)
			}
			conn, err := h.m.WaitReady(ctx, h.cfg.Name)
			if err != nil {
				t.Fatal(err)
			}
			if tools, err := conn.Tools(ctx); err != nil || len(tools) == 0 {
				t.Fatalf("tools: %v, %v", tools, err)
			}
			if !statusOf(h.m, h.cfg.Name).SignedIn {
				t.Error("a ready server signed in to does not say so")
			}
			h.clock.advance(2 * time.Hour)
			if _, err := conn.Tools(ctx); err != nil {
				t.Fatalf("after expiry: %v", err)
			}
			if got := h.f.LastGrant().Get("grant_type"); got != "refresh_token" {
				t.Errorf("last grant %q, want a refresh", got)
			}

			if err := h.m.SignOut(h.cfg.Name); err != nil {
				t.Fatal(err)
			}
			select { // the connection made with the sign-in is closed
			case <-conn.Lost():
			case <-ctx.Done():
				t.Fatal("the signed-in connection stayed open after signing out")
			}
			if st := h.waitState(StateNeedsSignIn); st.SignedIn {
				t.Error("signed out, the status says signed in")
			}
			if _, err := conn.Tools(ctx); err == nil {
				t.Error("a call on the signed-out connection worked")
			}
		})
	}
}

// TestManagerSignInFails: each way a sign-in goes wrong is put in plain
// words, stores nothing and leaves the server needing a sign-in.
func TestManagerSignInFails(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(*signintest.Server)
		browser func(stop context.CancelCauseFunc) signin.Browser
		want    string // Explain's summary
	}{
		{name: "issuer mismatch", setup: func(f *signintest.Server) { f.Issuer = "https://elsewhere.example" },
			want: `Sign-in failed: the authorization server's metadata names another issuer ("https://elsewhere.example"`},
		{name: "token endpoint answering garbage", setup: func(f *signintest.Server) {
			f.TokenReply = func(w http.ResponseWriter) bool { fmt.Fprint(w, "<html>SECRET oops</html>"); return true }
		}, want: "Sign-in failed: the authorization server did not give a token: its answer is not a token."},
		{name: "browser that never comes back", browser: func(stop context.CancelCauseFunc) signin.Browser {
			return signin.BrowserFunc(func(context.Context, string) error { stop(context.DeadlineExceeded); return nil })
		}, want: "Sign-in failed: the browser did not come back in time."},
		{name: "Cancel", browser: func(stop context.CancelCauseFunc) signin.Browser {
			return signin.BrowserFunc(func(context.Context, string) error { stop(nil); return nil })
		}, want: "Sign-in failed: the sign-in was cancelled."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, stop := context.WithCancelCause(context.Background())
			defer stop(nil)
			var b signin.Browser
			if tt.browser != nil {
				b = tt.browser(stop)
			}
			h := newSignInHarness(t, config.TransportHTTP, tt.setup, b)
			h.start()
			h.waitState(StateNeedsSignIn)
			err := h.m.SignIn(ctx, h.cfg.Name, nil)
			if got := Explain(err, "").Summary; !strings.HasPrefix(got, tt.want) {
				t.Errorf("explained as %q, want %q", got, tt.want)
			}
			if strings.Contains(err.Error(), signintest.SecretMark) {
				t.Errorf("a secret in the error: %v", err)
			}
			if s := h.signer.Status(h.cfg.URL); s.Phase != signin.Needed {
				t.Errorf("after a failed sign-in the signer says %q", s.Text())
			}
			if st := statusOf(h.m, h.cfg.Name); st.State != StateNeedsSignIn || st.SignedIn {
				t.Errorf("after a failed sign-in: %+v", st)
			}
		})
	}
}

// TestManagerRevokedSignIn: a ready server whose authorization server
// revoked the refresh token needs a sign-in again once the token expires,
// and says why.
func TestManagerRevokedSignIn(t *testing.T) {
	h := newSignInHarness(t, config.TransportHTTP, nil, nil)
	h.m.pingEvery = 20 * time.Millisecond // the manager finds out by pinging
	if err := h.signer.SignIn(context.Background(), h.cfg.URL, nil); err != nil {
		t.Fatal(err)
	}
	h.start()
	if st := h.waitState(StateReady); !st.SignedIn {
		t.Errorf("ready: %+v", st)
	}
	h.f.Revoke()
	h.clock.advance(2 * time.Hour)
	st := h.waitState(StateNeedsSignIn)
	if !errors.Is(st.Err, signin.ErrSignInNeeded) {
		t.Fatalf("err %v", st.Err)
	}
	if got, want := Explain(st.Err, "").Summary, "The server needs you to sign in again: the server no longer accepts the saved sign-in. Sign in opens your browser."; got != want {
		t.Errorf("explained as %q, want %q", got, want)
	}
	// The refused sign-in is not kept: Sign in goes to the browser again.
	grants := h.f.Grants()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := h.m.SignIn(ctx, h.cfg.Name, nil); err != nil {
		t.Fatal(err)
	}
	h.waitState(StateReady)
	if h.f.Grants() == grants {
		t.Error("Sign in after a revoked sign-in connected without signing in again")
	}
}

// TestOwnTokenNoSignIn: an entry that sets Authorization itself keeps its
// token, and a refusal of it is a failure that says so, not a sign-in.
func TestOwnTokenNoSignIn(t *testing.T) {
	h := newSignInHarness(t, config.TransportHTTP, nil, nil)
	h.cfg.Headers = map[string]string{"authorization": "Bearer mine"}
	h.start()
	st := h.waitState(StateFailed)
	if errors.Is(st.Err, signin.ErrSignInNeeded) || st.SignedIn || !strings.Contains(Explain(st.Err, "").Summary, "The server answered 401") {
		t.Errorf("a refused token of the entry's own: %+v", st)
	}
	if err := h.m.SignIn(context.Background(), h.cfg.Name, nil); err == nil {
		t.Error("SignIn of a server with its own token went ahead")
	}
}

// TestSignInServesEveryEntry: two entries for one server both need a
// sign-in; signing in through one connects both, and signing out through
// the other leaves both needing it again.
func TestSignInServesEveryEntry(t *testing.T) {
	h := newSignInHarness(t, config.TransportHTTP, nil, nil)
	other := h.cfg
	other.Name = "guarded-too"
	h.m.Apply(&config.File{Servers: []config.Server{h.cfg, other}})
	waitFor(t, h.m, "both to need a sign-in", func() bool {
		return statusOf(h.m, h.cfg.Name).State == StateNeedsSignIn && statusOf(h.m, other.Name).State == StateNeedsSignIn
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := h.m.SignIn(ctx, h.cfg.Name, nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, h.m, "both to connect", func() bool {
		return statusOf(h.m, h.cfg.Name).State == StateReady && statusOf(h.m, other.Name).State == StateReady
	})
	if err := h.m.SignOut(other.Name); err != nil {
		t.Fatal(err)
	}
	waitFor(t, h.m, "both to need a sign-in again", func() bool {
		return statusOf(h.m, h.cfg.Name).State == StateNeedsSignIn && statusOf(h.m, other.Name).State == StateNeedsSignIn
	})
}

// TestSignInMadeElsewhere: a sign-in another program made in the shared
// store (elicitdesk login) while the app waited serves the app's Sign in
// without the browser.
func TestSignInMadeElsewhere(t *testing.T) {
	var opened atomic.Int32
	follow := signintest.Follow(nil, nil)
	h := newSignInHarness(t, config.TransportHTTP, nil, signin.BrowserFunc(func(ctx context.Context, u string) error {
		opened.Add(1)
		return follow(ctx, u)
	}))
	h.start()
	h.waitState(StateNeedsSignIn)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := h.signer.SignIn(ctx, h.cfg.URL, nil); err != nil { // as elicitdesk login does
		t.Fatal(err)
	}
	if err := h.m.SignIn(ctx, h.cfg.Name, nil); err != nil {
		t.Fatal(err)
	}
	h.waitState(StateReady)
	if n := opened.Load(); n != 1 {
		t.Errorf("the browser opened %d times, want once: by the other program only", n)
	}
}
