package cli

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitdesk/elicitdesk/servers/demo"
	"github.com/elicitdesk/elicitdesk/servers/signin"
	"github.com/elicitdesk/elicitdesk/servers/signin/signintest"
)

// signInEnv points sign-in at a throwaway file and browser, the command
// standing in for the person's browser, and returns the file.
func signInEnv(t *testing.T, browser string) string {
	t.Helper()
	if strings.HasPrefix(browser, "curl ") {
		if _, err := exec.LookPath("curl"); err != nil {
			t.Fatalf("the browser stand-in is curl (make test-deps installs it): %v", err)
		}
	}
	file := filepath.Join(t.TempDir(), "signins.json")
	t.Setenv(signin.TokenFileEnv, file)
	t.Setenv(signin.BrowserEnv, browser)
	return file
}

// TestLoginToolsLogout: login keeps the sign-in, tools uses it without
// asking again, logout forgets it.
func TestLoginToolsLogout(t *testing.T) {
	file := signInEnv(t, "curl -fsSL -o /dev/null")
	s := signintest.New(t)
	s.MCP = server.NewStreamableHTTPServer(demo.NewServer())

	if code, out, errs := run("login", "-url", s.URL()); code != 0 || !strings.Contains(out, "signed in to "+s.URL()) {
		t.Fatalf("login: exit %d\n%s\n%s", code, out, errs)
	}
	grants := s.Grants()
	if code, out, errs := run("tools", "-url", s.URL()); code != 0 || !strings.Contains(out, `"name"`) {
		t.Fatalf("tools: exit %d\n%s\n%s", code, out, errs)
	}
	if s.Grants() != grants {
		t.Error("tools signed in again instead of using the stored sign-in")
	}
	if code, out, errs := run("logout", "-url", s.URL()); code != 0 || !strings.Contains(out, "signed out of "+s.URL()) {
		t.Fatalf("logout: exit %d\n%s\n%s", code, out, errs)
	}
	if b, _ := os.ReadFile(file); strings.Contains(string(b), s.URL()) {
		t.Errorf("logout left the sign-in in the file: %s", b)
	}
}

// TestSignInFailuresInTheCLI: a failed sign-in, by login or by tools,
// exits 1 with a plain message, stores nothing, and prints no secret.
func TestSignInFailuresInTheCLI(t *testing.T) {
	tests := []struct {
		name, browser string
		setup         func(*signintest.Server)
		want          string
	}{
		{"metadata naming another issuer", "curl -fsSL -o /dev/null", func(s *signintest.Server) { s.Issuer = "https://elsewhere.example" },
			`the authorization server's metadata names another issuer ("https://elsewhere.example"`},
		{"token endpoint over plain http", "curl -fsSL -o /dev/null", func(s *signintest.Server) { s.TokenURL = "http://auth.example.com/token" },
			`the token endpoint "http://auth.example.com/token" is plain http`},
		{"token endpoint answering an error", "curl -fsSL -o /dev/null", func(s *signintest.Server) {
			s.TokenReply = func(w http.ResponseWriter) bool {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				fmt.Fprint(w, `{"error":"invalid_grant","error_description":"the code was used already"}`)
				return true
			}
		}, "the authorization server did not give a token: invalid_grant"},
		{"browser command failing", "false", nil, `cannot open the browser: the browser command "false" failed`},
	}
	for _, tt := range tests {
		for _, cmd := range []string{"login", "tools"} {
			t.Run(tt.name+"/"+cmd, func(t *testing.T) {
				file := signInEnv(t, tt.browser)
				s := signintest.New(t)
				if tt.setup != nil {
					tt.setup(s)
				}
				code, out, errs := run(cmd, "-url", s.URL())
				want := "elicitdesk " + cmd + ": signing in to " + s.URL() + ": "
				if code != 1 || !strings.Contains(errs, want) || !strings.Contains(errs, tt.want) {
					t.Errorf("exit %d, stderr:\n%s\nwant %q and %q", code, errs, want, tt.want)
				}
				if b, _ := os.ReadFile(file); strings.Contains(string(b), s.URL()) {
					t.Errorf("a failed sign-in was stored: %s", b)
				}
				if strings.Contains(out+errs, signintest.SecretMark) {
					t.Errorf("a secret was printed:\n%s%s", out, errs)
				}
			})
		}
	}
}
