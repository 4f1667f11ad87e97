package signin

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/servers/signin/signintest"
)

// clock is a clock the test moves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// harness is a Signer on a keyring stand-in, with a log the test reads.
type harness struct {
	*Signer
	store  *Memory
	logged *lockedWriter
	clock  *clock
}

// log is a logger to the same buffer, for the code around the Signer.
func (h *harness) log() *slog.Logger {
	return slog.New(slog.NewTextHandler(h.logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func newHarness(b Browser) *harness {
	h := &harness{store: NewMemory(), logged: &lockedWriter{}, clock: &clock{t: time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)}}
	h.Signer = New(Options{Store: h.store, Browser: b, Now: h.clock.now, Log: h.log()})
	return h
}

// lockedWriter is a log buffer several goroutines write.
type lockedWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// get requests the MCP endpoint through rt.
func get(t *testing.T, rt http.RoundTripper, u string) (string, error) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	resp, err := (&http.Client{Transport: rt}).Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b), nil
}

// noSecrets fails the test if a secret the fake servers gave reached the
// log or texts.
func noSecrets(t *testing.T, h *harness, texts ...string) {
	t.Helper()
	for _, s := range append(texts, h.logged.String()) {
		if strings.Contains(s, signintest.SecretMark) {
			t.Errorf("a secret leaked: %s", s)
		}
	}
}

// TestSignInRefreshSignOut goes the way the app does: a request fails
// for want of a sign-in, the person signs in (the browser stand-in
// approving), requests carry the token, an expired token is refreshed,
// and signing out forgets it all.
func TestSignInRefreshSignOut(t *testing.T) {
	f := signintest.New(t)
	h := newHarness(BrowserFunc(signintest.Follow(nil, nil)))
	rt := h.Transport(f.URL(), nil, false, nil)

	_, err := get(t, rt, f.URL())
	var se *Error
	if !errors.Is(err, ErrSignInNeeded) || !errors.As(err, &se) || se.Server != f.URL() {
		t.Fatalf("before signing in: %v, want ErrSignInNeeded in a *signin.Error", err)
	}
	if got := h.Status(f.URL()); got.Text() != "Sign in needed" {
		t.Errorf("status %q, want Sign in needed", got.Text())
	}

	var phases []string
	if err := h.SignIn(context.Background(), f.URL(), func(s Status) { phases = append(phases, s.Text()) }); err != nil {
		t.Fatal(err)
	}
	if want := []string{"Waiting for the browser…", "Signed in"}; strings.Join(phases, "|") != strings.Join(want, "|") {
		t.Errorf("phases %q, want %q", phases, want)
	}
	if got := f.LastGrant(); got.Get("resource") != f.URL() || got.Get("code_verifier") == "" {
		t.Errorf("the code exchange lacked the resource or the verifier: %v", got.Encode())
	}
	body, err := get(t, rt, f.URL())
	if err != nil || body != "hello" {
		t.Fatalf("signed in: %q, %v", body, err)
	}
	stored, _ := h.store.Load(f.URL())
	first := string(stored)

	h.clock.advance(2 * time.Hour) // past the 3600 s the token lasts
	body, err = get(t, rt, f.URL())
	if err != nil || body != "hello" {
		t.Fatalf("after expiry: %q, %v", body, err)
	}
	if got := f.LastGrant(); got.Get("grant_type") != "refresh_token" || got.Get("resource") != f.URL() {
		t.Errorf("no refresh with the resource: %v", got.Encode())
	}
	if stored, _ := h.store.Load(f.URL()); string(stored) == first {
		t.Error("the refreshed token was not stored")
	}

	if err := h.SignOut(f.URL()); err != nil {
		t.Fatal(err)
	}
	if _, err := h.store.Load(f.URL()); !errors.Is(err, ErrNoRecord) {
		t.Errorf("signed out, the store still holds the sign-in: %v", err)
	}
	if _, err := get(t, rt, f.URL()); !errors.Is(err, ErrSignInNeeded) {
		t.Errorf("signed out: %v, want ErrSignInNeeded", err)
	}
	noSecrets(t, h)
}

// TestStepUp signs in again, for the union of the scopes, when the server
// wants one more; the interactive transport does it within the request.
func TestStepUp(t *testing.T) {
	f := signintest.New(t)
	f.Need = func(int) string { return "write" }
	h := newHarness(BrowserFunc(signintest.Follow(nil, nil)))
	body, err := get(t, h.Transport(f.URL(), nil, true, nil), f.URL())
	if err != nil || body != "hello" {
		t.Fatalf("%q, %v", body, err)
	}
	r, _ := h.load(f.URL())
	got := slices.Sorted(slices.Values(r.Scopes))
	if want := []string{"offline_access", "read", "write"}; !slices.Equal(got, want) {
		t.Errorf("scopes asked %q, want the union %q", got, want)
	}
	noSecrets(t, h)
}

// TestAuthorizationServerMigration: when the server's metadata names
// another authorization server, the next sign-in registers there afresh
// and keeps nothing of the old one's (SEP-2352).
func TestAuthorizationServerMigration(t *testing.T) {
	old, moved := signintest.New(t), signintest.New(t)
	h := newHarness(BrowserFunc(signintest.Follow(nil, nil)))
	if err := h.SignIn(context.Background(), old.URL(), nil); err != nil {
		t.Fatal(err)
	}
	old.AuthServer = moved.AS.URL
	if err := h.SignIn(context.Background(), old.URL(), nil); err != nil {
		t.Fatal(err)
	}
	r, _ := h.load(old.URL())
	if r.Issuer != moved.AS.URL || r.Client.ID != moved.ClientID() || moved.Registrations() != 1 {
		t.Errorf("after the move: issuer %s, client %s, %d registrations at the new server; want %s, %s, 1",
			r.Issuer, r.Client.ID, moved.Registrations(), moved.AS.URL, moved.ClientID())
	}
	if got := moved.LastGrant().Get("grant_type"); got != "authorization_code" {
		t.Errorf("the new server's last grant %q, want a code exchange", got)
	}
}

// TestRefreshRace: two programs share the store (the app and the CLI);
// when one has used the refresh token, which the server rotates, the
// other's refresh takes what the first kept instead of signing out.
func TestRefreshRace(t *testing.T) {
	f := signintest.New(t)
	app := newHarness(BrowserFunc(signintest.Follow(nil, nil)))
	cli := New(Options{Store: app.store, Browser: app.browser, Now: app.clock.now, Log: app.log()})
	if err := app.SignIn(context.Background(), f.URL(), nil); err != nil {
		t.Fatal(err)
	}
	app.clock.advance(2 * time.Hour)
	stale, _ := app.load(f.URL()) // what the app read before the CLI refreshed
	kept, err := cli.accessToken(context.Background(), f.URL())
	if err != nil {
		t.Fatal(err)
	}
	got, err := app.refresh(context.Background(), f.URL(), stale)
	if err != nil || got != kept {
		t.Errorf("the app's refresh after the CLI's: %v, want the token the CLI kept", err)
	}
	noSecrets(t, app)
}

// TestTokenStaysOnItsOrigin: a server that redirects a request sends the
// token along only when the redirect stays on its origin; another port of
// the same host is another origin.
func TestTokenStaysOnItsOrigin(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		elsewhere bool // to another origin, else to another path of the server
	}{
		{"307 to another port", http.StatusTemporaryRedirect, true},
		{"308 to another port", http.StatusPermanentRedirect, true},
		{"302 to another port", http.StatusFound, true},
		{"307 to another path of the server", http.StatusTemporaryRedirect, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var seen, withToken int // requests the other origin received
			other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen++
				if r.Header.Get("Authorization") != "" {
					withToken++
				}
				mu.Unlock()
				io.WriteString(w, "elsewhere")
			}))
			defer other.Close()
			f := signintest.New(t)
			target, want, wantSeen := f.RS.URL+"/moved", "moved", 0
			if tt.elsewhere {
				target, want, wantSeen = other.URL+"/mcp", "elsewhere", 1
			}
			f.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/mcp" {
					http.Redirect(w, r, target, tt.status)
					return
				}
				io.WriteString(w, "moved") // reached only with the token
			})
			h := newHarness(BrowserFunc(signintest.Follow(nil, nil)))
			if err := h.SignIn(context.Background(), f.URL(), nil); err != nil {
				t.Fatal(err)
			}
			body, err := get(t, h.Transport(f.URL(), nil, false, nil), f.URL())
			if err != nil || body != want {
				t.Fatalf("got %q, %v; want %q", body, err, want)
			}
			mu.Lock()
			defer mu.Unlock()
			if withToken != 0 || seen != wantSeen {
				t.Errorf("the other origin saw %d requests, %d with Authorization; want %d, none with it", seen, withToken, wantSeen)
			}
			t.Logf("the other origin saw %d requests, %d with Authorization", seen, withToken)
		})
	}
}
