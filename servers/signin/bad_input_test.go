package signin

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/servers/signin/signintest"
)

// TestBadInput: each way a server or the browser can go wrong ends the
// sign-in with a plain error, stores nothing, and leaks no secret.
func TestBadInput(t *testing.T) {
	setQuery := func(key, value string) func(*url.URL) {
		return func(u *url.URL) {
			q := u.Query()
			q.Set(key, value)
			u.RawQuery = q.Encode()
		}
	}
	tests := []struct {
		name    string
		setup   func(f *signintest.Server)
		browser func(stop context.CancelCauseFunc) Browser // nil: one that approves
		want    string
	}{
		{name: "metadata naming another issuer", setup: func(f *signintest.Server) { f.Issuer = "https://elsewhere.example" },
			want: `the authorization server's metadata names another issuer ("https://elsewhere.example"`},
		{name: "token endpoint over plain http", setup: func(f *signintest.Server) { f.TokenURL = "http://auth.example.com/token" },
			want: `the token endpoint "http://auth.example.com/token" is plain http`},
		{name: "metadata for another resource", setup: func(f *signintest.Server) { f.Resource = "https://evil.example.com/mcp" },
			want: `the server's sign-in metadata is for another resource ("https://evil.example.com/mcp"`},
		{name: "discovery redirected to another host", setup: func(f *signintest.Server) { f.PRMTo = f.AS.URL + "/.well-known/oauth-protected-resource" },
			want: "redirected to another host"},
		{name: "only answers with another state", browser: func(stop context.CancelCauseFunc) Browser {
			return BrowserFunc(func(ctx context.Context, raw string) error {
				defer stop(context.DeadlineExceeded) // the time limit, once the forged answer is in
				return signintest.Follow(nil, setQuery("state", "forged"))(ctx, raw)
			})
		},
			want: "the browser did not come back in time"},
		{name: "iss of another server", browser: func(context.CancelCauseFunc) Browser {
			return BrowserFunc(signintest.Follow(nil, setQuery("iss", "https://evil.example.com")))
		},
			want: `the answer came from another authorization server (iss "https://evil.example.com"`},
		{name: "PKCE mismatch", browser: func(context.CancelCauseFunc) Browser {
			return BrowserFunc(signintest.Follow(setQuery("code_challenge", "forged"), nil))
		},
			want: "the authorization server did not give a token: invalid_grant"},
		{name: "token endpoint answering garbage", setup: func(f *signintest.Server) {
			f.TokenReply = func(w http.ResponseWriter) bool { fmt.Fprint(w, "<html>SECRET oops</html>"); return true }
		}, want: "the authorization server did not give a token: its answer is not a token"},
		{name: "token endpoint answering an error", setup: func(f *signintest.Server) {
			f.TokenReply = func(w http.ResponseWriter) bool {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				fmt.Fprint(w, `{"error":"invalid_client","error_description":"who are you"}`)
				return true
			}
		}, want: "the authorization server did not give a token: invalid_client (who are you)"},
		{name: "browser that never comes back", browser: func(stop context.CancelCauseFunc) Browser {
			return BrowserFunc(func(context.Context, string) error { stop(context.DeadlineExceeded); return nil })
		}, want: "the browser did not come back in time"},
		{name: "Cancel", browser: func(stop context.CancelCauseFunc) Browser {
			return BrowserFunc(func(context.Context, string) error { stop(nil); return nil })
		}, want: "the sign-in was cancelled"},
		{name: "browser command failing", browser: func(context.CancelCauseFunc) Browser { return Command{"false"} },
			want: `cannot open the browser: the browser command "false" failed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := signintest.New(t)
			if tt.setup != nil {
				tt.setup(f)
			}
			ctx, stop := context.WithCancelCause(context.Background())
			defer stop(nil)
			var b Browser = BrowserFunc(signintest.Follow(nil, nil))
			if tt.browser != nil {
				b = tt.browser(stop)
			}
			h := newHarness(b)
			var last Status
			err := h.SignIn(ctx, f.URL(), func(s Status) { last = s })
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error with %q", err, tt.want)
			}
			var se *Error
			if !errors.As(err, &se) || se.Server != f.URL() {
				t.Fatalf("%v is not a *signin.Error for the server", err)
			}
			if last.Phase != Failed || last.Text() != "Sign-in failed: "+se.Err.Error() {
				t.Errorf("last status %q, want the failure", last.Text())
			}
			if _, err := h.store.Load(f.URL()); !errors.Is(err, ErrNoRecord) {
				t.Errorf("a failed sign-in stored something (%v)", err)
			}
			noSecrets(t, h, err.Error())
		})
	}
}

// TestEndlessScopes: a server that asks for one more scope after every
// sign-in gets maxSignIns of them in one request, then a plain error.
func TestEndlessScopes(t *testing.T) {
	f := signintest.New(t)
	f.Need = func(n int) string { return fmt.Sprintf("more%d", n) }
	h := newHarness(BrowserFunc(signintest.Follow(nil, nil)))
	_, err := get(t, h.Transport(f.URL(), nil, true, nil), f.URL())
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("the server still refuses access after %d sign-ins", maxSignIns)) {
		t.Fatalf("got %v", err)
	}
	if codes := f.Grants(); codes != maxSignIns {
		t.Errorf("%d sign-ins, want %d", codes, maxSignIns)
	}
	noSecrets(t, h, err.Error())
}

// TestRevokedRefreshToken: a refresh token the server no longer accepts
// is forgotten, and the request says a sign-in is needed.
func TestRevokedRefreshToken(t *testing.T) {
	f := signintest.New(t)
	h := newHarness(BrowserFunc(signintest.Follow(nil, nil)))
	if err := h.SignIn(context.Background(), f.URL(), nil); err != nil {
		t.Fatal(err)
	}
	f.Revoke()
	h.clock.advance(2 * time.Hour)
	_, err := get(t, h.Transport(f.URL(), nil, false, nil), f.URL())
	if !errors.Is(err, ErrSignInNeeded) || !strings.Contains(err.Error(), "the server no longer accepts the saved sign-in") {
		t.Fatalf("got %v", err)
	}
	if s := h.Status(f.URL()); s.Phase != Needed {
		t.Errorf("status %q, want Sign in needed", s.Text())
	}
	if r, _ := h.load(f.URL()); r == nil || r.Access != "" || r.Refresh != "" || r.Client.ID == "" {
		t.Errorf("stored %+v, want the client kept and the tokens forgotten", r)
	}
	noSecrets(t, h, err.Error())
}

// TestNoSecretInCallbackPage: what the browser shows holds no secret.
func TestNoSecretInCallbackPage(t *testing.T) {
	r, err := listenRedirect("x")
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	resp, err := http.Get(r.uri + "?code=code-" + signintest.SecretMark + "&state=x")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(page), signintest.SecretMark) {
		t.Errorf("the page shows the code: %s", page)
	}
	if q, err := r.wait(context.Background()); err != nil || q.Get("state") != "x" {
		t.Errorf("the listener got %v, %v", q, err)
	}
}

// TestForgedCallback: requests to the redirect listener that do not carry
// the sign-in's state (anything on this machine can send them) get a 400
// page and are ignored; the sign-in goes on to the browser's real answer.
func TestForgedCallback(t *testing.T) {
	tests := []struct {
		name  string
		query string // of the forged request
	}{
		{"wrong state", "code=forged&state=forged"},
		{"no state", "code=forged"},
		{"refusal with a wrong state", "error=access_denied&state=forged"},
		{"state twice", "code=forged&state=forged&state=forged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := signintest.New(t)
			var forged []int // status codes of the forged requests
			approve := signintest.Follow(nil, nil)
			h := newHarness(BrowserFunc(func(ctx context.Context, raw string) error {
				u, _ := url.Parse(raw)
				back := u.Query().Get("redirect_uri") + "?" + tt.query
				for range 3 {
					resp, err := http.Get(back)
					if err != nil {
						return err
					}
					resp.Body.Close()
					forged = append(forged, resp.StatusCode)
				}
				return approve(ctx, raw)
			}))
			if err := h.SignIn(context.Background(), f.URL(), nil); err != nil {
				t.Fatalf("the sign-in ended on forged answers: %v", err)
			}
			if want := []int{400, 400, 400}; !slices.Equal(forged, want) {
				t.Errorf("forged requests answered %v, want %v", forged, want)
			}
			if got := f.LastGrant(); f.Grants() != 1 || got.Get("code") == "forged" {
				t.Errorf("%d code exchanges, the last with code %q; want 1, with the server's code", f.Grants(), got.Get("code"))
			}
			t.Logf("forged requests answered %v; %d code exchange with the real code", forged, f.Grants())
		})
	}
}

// TestDiscoveryStaysOnOrigin: sign-in fetches and sends nothing to a URL
// the server or its authorization server names on another origin (here
// another port of 127.0.0.1): the resource metadata must be on the
// server's origin, the endpoints on the issuer's. The authorization
// server itself, named by the resource metadata, is on another port in
// every test of this package.
func TestDiscoveryStaysOnOrigin(t *testing.T) {
	tests := []struct {
		name  string
		setup func(f *signintest.Server, other string)
		want  string
	}{
		{name: "resource metadata on another origin",
			setup: func(f *signintest.Server, other string) {
				f.PRMURL = other + "/.well-known/oauth-protected-resource/mcp"
			},
			want: "the protected resource metadata URL %q is on another origin than %q"},
		{name: "token endpoint on another origin",
			setup: func(f *signintest.Server, other string) { f.TokenURL = other + "/token" },
			want:  "the token endpoint %q is on another origin than %q"},
		{name: "authorization endpoint on another origin",
			setup: func(f *signintest.Server, other string) { f.AuthURL = other + "/authorize" },
			want:  "the authorization endpoint %q is on another origin than %q"},
		{name: "registration endpoint on another origin",
			setup: func(f *signintest.Server, other string) { f.RegURL = other + "/register" },
			want:  "the registration endpoint %q is on another origin than %q"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var seen []string // the requests the other origin received
			other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen = append(seen, r.Method+" "+r.URL.Path)
				mu.Unlock()
				http.NotFound(w, r)
			}))
			defer other.Close()
			f := signintest.New(t)
			tt.setup(f, other.URL)
			approve := signintest.Follow(nil, nil)
			h := newHarness(BrowserFunc(func(ctx context.Context, raw string) error {
				if !strings.HasPrefix(raw, f.AS.URL+"/") {
					return errors.New("the browser was sent elsewhere") // no answer would come back
				}
				return approve(ctx, raw)
			}))
			// The interactive transport, as the CLI: the challenge's
			// resource_metadata is read.
			_, err := get(t, h.Transport(f.URL(), nil, true, nil), f.URL())
			bad, owner := cmp.Or(f.PRMURL, f.TokenURL, f.AuthURL, f.RegURL), f.AS.URL
			if f.PRMURL != "" {
				owner = f.URL()
			}
			if want := fmt.Sprintf(tt.want, bad, owner); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("got %v, want an error with %q", err, want)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(seen) != 0 {
				t.Errorf("the other origin received %q, want nothing", seen)
			}
			t.Logf("%v; the other origin received %d requests", err, len(seen))
		})
	}
}
