//go:build unix

package cli

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// strangerUID is the user the stranger runs as: one no account has.
const strangerUID = 54321

// TestListenRefusesOtherUsers runs a client as another user of the machine
// against `bridge -listen`: every try is refused with 401 and no server is
// started, the secret file is out of its reach, and the person's own
// host, with the URL the bridge printed, is served (issue 22).
func TestListenRefusesOtherUsers(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skipf("runs a client as another user (uid %d), which needs root; this test runs as uid %d", strangerUID, os.Geteuid())
	}
	bin := elicitdeskBin(t)
	demo := demoCommand(t)[1:] // sets what the test binary needs to be the demo server
	env := noAppEnv(t)
	// The server the bridge starts marks that it started.
	started := filepath.Join(t.TempDir(), "started")
	url, log := startBridgeListen(t, bin, env, append([]string{"-name", "demo", "--", "sh", "-c", `echo >>"$0"; exec "$@"`, started}, demo...)...)
	m := listenKept.FindStringSubmatch(log.String())
	if m == nil {
		t.Fatalf("the bridge did not say where it keeps the secret:\n%s", log)
	}
	secretFile := m[1]
	secret, err := os.ReadFile(secretFile)
	if err != nil || !strings.Contains(url, "/"+strings.TrimSpace(string(secret))+"/mcp") {
		t.Fatalf("the URL %s does not hold the secret kept in %s (%v)", url, secretFile, err)
	}

	header := strings.Replace(url, "/"+strings.TrimSpace(string(secret)), "", 1)
	got := runStranger(t, stranger{URL: header, SecretFile: secretFile})
	t.Logf("the stranger (uid %d) got %+v", strangerUID, got)
	if len(got.Status) != 4 || len(got.Tries) != 0 {
		t.Errorf("the stranger's tries did not all get an answer: %+v", got)
	}
	for try, status := range got.Status {
		if status != http.StatusUnauthorized {
			t.Errorf("%s: %d, want 401", try, status)
		}
	}
	if !strings.HasPrefix(got.WWWAuthenticate, "Bearer") || !strings.Contains(got.Body, `"error"`) {
		t.Errorf("the refusal: WWW-Authenticate %q, body %s", got.WWWAuthenticate, got.Body)
	}
	if !strings.Contains(got.ReadSecret, "permission denied") {
		t.Errorf("the stranger could read the secret file: %q", got.ReadSecret)
	}
	if _, err := os.Stat(started); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a server was started for the stranger (%v):\n%s", err, log)
	}
	if n := strings.Count(log.String(), "mcp request refused: no secret"); n != len(got.Status) {
		t.Errorf("the bridge logged %d refusals, want %d:\n%s", n, len(got.Status), log)
	}

	// The person's host, with the printed URL, is served: the server starts.
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"host"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "serverInfo") {
		t.Errorf("the person's host got %s %s", resp.Status, body)
	}
	if _, err := os.Stat(started); err != nil {
		t.Errorf("no server started for the person's host: %v", err)
	}
}

// TestListenShowsServerStderrSafely: with -listen the bridge's stderr is
// the person's terminal, where a server's lines show through untrusted:
// its escape sequences cannot clear the screen.
func TestListenShowsServerStderrSafely(t *testing.T) {
	bin := elicitdeskBin(t)
	demo := demoCommand(t)[1:]
	url, log := startBridgeListen(t, bin, noAppEnv(t), append([]string{"-name", "demo", "--", "sh", "-c", `printf '\033[2J\033[Hall is well\r\n' >&2; exec "$@"`, "sh"}, demo...)...)
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"host"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	printed := log.wait(t, "⟨U+001B⟩[2J⟨U+001B⟩[Hall is well\n", 1)
	if strings.ContainsRune(printed, '\x1b') {
		t.Errorf("the bridge printed an escape raw:\n%q", printed)
	}
}

// runStranger runs a copy of the test binary as strangerUID, which cannot
// reach the build directory, acting as s, and returns what it reports.
func runStranger(t *testing.T, s stranger) strangerReport {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "elicitdesk-stranger-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(dir, "stranger")
	if err := copyFile(exe, copied); err != nil {
		t.Fatal(err)
	}
	brief, _ := json.Marshal(s)
	cmd := exec.Command(copied)
	cmd.Dir = dir
	cmd.Env = []string{strangerEnv + "=" + string(brief), "HOME=" + dir}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: strangerUID, Gid: strangerUID}}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the stranger: %v\n%s", err, stderr.String())
	}
	var r strangerReport
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("the stranger's report %q: %v", out, err)
	}
	return r
}
