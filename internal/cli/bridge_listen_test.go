package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The lines `bridge -listen` prints when it starts: the URL a host
// reaches it at, the secret in its path, and the file that keeps the
// secret.
var (
	listenURL  = regexp.MustCompile(`serving MCP for .* at (http://\S+)`)
	listenKept = regexp.MustCompile(`\(kept in (.+); delete`)
)

// startBridgeListen starts `bin bridge -listen ADDR args...` in env and
// returns the URL it prints, and what it prints.
func startBridgeListen(t testing.TB, bin string, env []string, args ...string) (string, *logBuffer) {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(bin, append([]string{"bridge", "-listen", addr}, args...)...)
	cmd.Env = env
	log := startListener(t, cmd, addr)
	// It prints the URL once it listens: soon, if not yet.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := listenURL.FindStringSubmatch(log.String()); m != nil {
			return m[1], log
		}
	}
	t.Fatalf("the bridge printed no URL:\n%s", log)
	return "", nil
}

// strangerEnv makes the test binary, re-run as a child, act as another
// user of the machine trying the person's bridge, and print what it got;
// its value is the brief, a stranger as JSON.
const strangerEnv = "ELICITDESK_TEST_STRANGER"

// stranger is what another user of the machine knows of the person's
// bridge: where it listens and where its secret is kept, not the secret.
type stranger struct {
	URL        string // the URL without the secret
	SecretFile string
}

// strangerReport is what the stranger got.
type strangerReport struct {
	Status          map[string]int    // by try: the HTTP status
	WWWAuthenticate string            // of the first refusal
	Body            string            // of the first refusal
	ReadSecret      string            // the error reading the secret file; "" if read
	Tries           map[string]string // errors that kept a try from an answer
}

// actAsStranger tries the bridge as the brief says and prints a
// strangerReport; it returns the exit code.
func actAsStranger(brief string, out io.Writer) int {
	var s stranger
	if err := json.Unmarshal([]byte(brief), &s); err != nil {
		return 2
	}
	r := strangerReport{Status: map[string]int{}, Tries: map[string]string{}}
	base := strings.TrimSuffix(s.URL, "/mcp")
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"stranger","title":"for Claude Desktop"}}}`
	for _, try := range []struct{ name, url, version, auth string }{
		{"initialize", s.URL, "", ""},
		{"2026-07-28", s.URL, "2026-07-28", ""},
		{"made-up secret in the path", base + "/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/mcp", "", ""},
		{"made-up bearer", s.URL, "", "Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
	} {
		req, _ := http.NewRequest("POST", try.url, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if try.version != "" {
			req.Header.Set("Mcp-Protocol-Version", try.version)
		}
		if try.auth != "" {
			req.Header.Set("Authorization", try.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			r.Tries[try.name] = err.Error()
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		r.Status[try.name] = resp.StatusCode
		if r.Body == "" {
			r.Body, r.WWWAuthenticate = string(body), resp.Header.Get("WWW-Authenticate")
		}
	}
	if _, err := os.ReadFile(s.SecretFile); err != nil {
		r.ReadSecret = err.Error()
	}
	json.NewEncoder(out).Encode(r)
	return 0
}
