package signin

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/demo"
	"github.com/elicitdesk/elicitdesk/servers/signin/signintest"
)

// TestAppPath connects to an MCP server behind sign-in the way the app
// will: servers.DialWith through a non-interactive Transport fails with
// ErrSignInNeeded (the app shows Sign in), SignIn with the browser
// stand-in approving, the connection then works, an expired token is
// refreshed under it, and after signing out the open connection's calls
// and the next connection need a sign-in again.
func TestAppPath(t *testing.T) {
	f := signintest.New(t)
	f.MCP = server.NewStreamableHTTPServer(demo.NewServer())
	h := newHarness(BrowserFunc(signintest.Follow(nil, nil)))
	cfg := config.Server{Name: "guarded", URL: f.URL(), Transport: config.TransportHTTP}
	wrap := func(base http.RoundTripper) http.RoundTripper { return h.Transport(cfg.URL, base, false, nil) }
	router := servers.NewRouter(servers.DefaultLimits, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	_, err := servers.DialWith(ctx, cfg, router, h.log(), wrap)
	var se *Error
	if !errors.Is(err, ErrSignInNeeded) || !errors.As(err, &se) {
		t.Fatalf("dialling before signing in: %v, want ErrSignInNeeded in a *signin.Error", err)
	}
	if err := h.SignIn(ctx, cfg.URL, nil); err != nil {
		t.Fatal(err)
	}
	conn, err := servers.DialWith(ctx, cfg, router, h.log(), wrap)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if tools, err := conn.Tools(ctx); err != nil || len(tools) == 0 {
		t.Fatalf("tools: %v, %v", tools, err)
	}
	h.clock.advance(2 * time.Hour)
	if _, err := conn.Tools(ctx); err != nil {
		t.Fatalf("after expiry: %v", err)
	}
	if got := f.LastGrant().Get("grant_type"); got != "refresh_token" {
		t.Errorf("last grant %q, want a refresh", got)
	}
	if err := h.SignOut(cfg.URL); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Tools(ctx); !errors.Is(err, ErrSignInNeeded) {
		t.Errorf("a call after signing out: %v, want ErrSignInNeeded", err)
	}
	if _, err := servers.DialWith(ctx, cfg, router, h.log(), wrap); !errors.Is(err, ErrSignInNeeded) {
		t.Errorf("dialling after signing out: %v, want ErrSignInNeeded", err)
	}
	noSecrets(t, h)
}

// TestAppPathSSE signs in to an HTTP+SSE server the same way: its event
// stream and its message POSTs carry the token.
func TestAppPathSSE(t *testing.T) {
	f := signintest.New(t)
	f.Resource = f.RS.URL // the resource covers /sse and /message
	f.MCP = server.NewSSEServer(demo.NewServer(), server.WithBaseURL(f.RS.URL))
	h := newHarness(BrowserFunc(signintest.Follow(nil, nil)))
	cfg := config.Server{Name: "guarded", URL: f.RS.URL + "/sse", Transport: config.TransportSSE}
	wrap := func(base http.RoundTripper) http.RoundTripper { return h.Transport(cfg.URL, base, true, nil) }
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := servers.DialWith(ctx, cfg, servers.NewRouter(servers.DefaultLimits, h.log()), h.log(), wrap)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if tools, err := conn.Tools(ctx); err != nil || len(tools) == 0 {
		t.Fatalf("tools: %v, %v", tools, err)
	}
	if h.Status(cfg.URL).Phase != SignedIn {
		t.Error("not signed in")
	}
	noSecrets(t, h)
}
