//go:build linux

package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
)

// headlessEnv names the build without windows (make headless), which
// make test builds.
const headlessEnv = "ELICITDESK_HEADLESS"

// headlessAsRoot is the build without windows, for a test that needs
// root for what needs says; it skips, saying why, without either.
func headlessAsRoot(t testing.TB, needs string) string {
	t.Helper()
	bin := os.Getenv(headlessEnv)
	if bin == "" {
		t.Skipf("%s is not set: make test builds the bridge without windows (make headless) and sets it", headlessEnv)
	}
	if os.Geteuid() != 0 {
		t.Skipf("%s needs root; this test runs as uid %d (CI runs it as root)", needs, os.Geteuid())
	}
	return bin
}

// bareRoot is a root holding the build without windows as /elicitdesk and
// only the libraries ldd says it needs: none of GL, X11 or Wayland. It
// checks that the build needs none of them.
func bareRoot(t *testing.T) (root string, run func(args ...string) *exec.Cmd) {
	t.Helper()
	bin := headlessAsRoot(t, "a root of its own (chroot, a mount namespace for its /proc)")
	root = t.TempDir()
	out, err := exec.Command("ldd", bin).Output()
	if err != nil {
		t.Fatalf("ldd %s: %v", bin, err)
	}
	libs := regexp.MustCompile(`/\S+`).FindAllString(string(out), -1)
	for _, lib := range libs {
		if regexp.MustCompile(`lib(GL|X11|wayland|xkbcommon|EGL)`).MatchString(lib) {
			t.Errorf("the build without windows links %s", lib)
		}
		place(t, lib, root, lib)
	}
	place(t, bin, root, "elicitdesk")
	for _, dir := range []string{"proc", "tmp", "home", "run/user/0"} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// Codex's environment for its servers; no XDG_RUNTIME_DIR, so the
	// bridge looks where the XDG rule says: /run/user/0.
	env := []string{"HOME=/home", "LANG=C.UTF-8", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "SHELL=/bin/sh", "TERM=dumb"}
	return root, func(args ...string) *exec.Cmd {
		cmd := exec.Command("unshare", append([]string{"--mount", "--fork", "sh", "-c",
			`mount -t proc proc "$0/proc" && exec chroot "$0" /elicitdesk "$@"`, root}, args...)...)
		cmd.Env = env
		return cmd
	}
}

// place copies the executable or library from to the same path under
// root.
func place(t *testing.T, from, root, to string) {
	t.Helper()
	to = filepath.Join(root, to)
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := copyFile(from, to); err != nil {
		t.Fatal(err)
	}
}

// TestHeadlessInABareRoot: the build without windows runs in a root that
// holds nothing but it and libc: its commands work, the window commands
// say what this build is, and its bridge, under a host with Codex's bare
// environment, finds the desktop's endpoint where the XDG rule says (a
// forward's end), and the host gets the person's answer. With nothing
// answering there (a stale socket file a forward left), the bridge says
// in words where it looked and what to do.
func TestHeadlessInABareRoot(t *testing.T) {
	root, run := bareRoot(t)

	if out, err := run("version").CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "elicitdesk ") {
		t.Errorf("version: %v: %s", err, out)
	}
	if out, err := run("lint", "-hosts", "/nowhere.json").CombinedOutput(); err == nil || !strings.Contains(string(out), "no such file") {
		t.Errorf("lint of a missing file: %v: %s", err, out)
	}
	out, err := run().CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "this build has no windows") {
		t.Errorf("the app: exit %d: %s", code, out)
	}
	// Its help marks the commands that are windows, and answers of them.
	if out, err := run("help").Output(); err != nil || !strings.Contains(string(out), "print the answer.\n      Not in this build, which has no windows.\n") {
		t.Errorf("help: %v: %s", err, out)
	}
	if out, err := run("help", "preview").Output(); err != nil || !strings.HasPrefix(string(out), "usage: elicitdesk preview") || !strings.Contains(string(out), "Not in this build") {
		t.Errorf("help preview: %v: %s", err, out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sock := filepath.Join(root, "run/user/0/elicitdesk.sock")
	p := person{answer: json.RawMessage(`{"action":"accept","content":{"color":"green"}}`), asked: make(chan endpoint.Question, 1)}
	srv, err := endpoint.Listen(ctx, sock, p, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	res, _, err := callThroughBareBridge(ctx, t, run)
	if err != nil {
		t.Fatal(err)
	}
	srv.Close()
	select {
	case q := <-p.asked:
		if q.Session.Server != "remote demo" || !strings.Contains(string(q.Params), "pick a colour") {
			t.Errorf("the person was asked %s by %q", q.Params, q.Session.Server)
		}
	default:
		t.Fatal("the person was not asked")
	}
	if text := fmt.Sprint(res.Content); res.IsError || !strings.Contains(text, `"color":"green"`) {
		t.Errorf("the host got %s, want the person's answer", text)
	}

	// A forward that ended left its socket file: nothing answers there.
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	_, stderr, err := callThroughBareBridge(ctx, t, run)
	if err == nil || !strings.Contains(err.Error(), "nobody could answer") {
		t.Errorf("with nothing at the endpoint the host got %v, want an error saying nobody could answer", err)
	}
	if want := "no Elicit Desk answers at /run/user/0/elicitdesk.sock, where ELICITDESK_ENDPOINT being unset says to look: " +
		"its socket is left from a forward that ended, and ssh cannot forward over it. Remove it (rm -f /run/user/0/elicitdesk.sock), " +
		"then on your desktop, run `elicitdesk remote "; !strings.Contains(stderr, want) {
		t.Errorf("with nothing at the endpoint the bridge said:\n%s\nwant it to say %q", stderr, want)
	}
}

// callThroughBareBridge has a 2026-07-28 host call the demo's
// input_required through the bridge in the bare root, and returns the
// result, what the bridge said on stderr, and the call's error.
func callThroughBareBridge(ctx context.Context, t *testing.T, run func(args ...string) *exec.Cmd) (*mcp.CallToolResult, string, error) {
	t.Helper()
	cmd := run("bridge", "-name=remote demo", "--", "/elicitdesk", "demo-server")
	tr := transport.NewStdio(cmd.Path, cmd.Env, cmd.Args[1:]...)
	host := client.NewClient(tr, client.WithProtocolVersion(mcp.ProtocolVersion20260728))
	if err := host.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var said strings.Builder
	done := make(chan struct{})
	go func() {
		defer close(done)
		s := bufio.NewScanner(tr.Stderr())
		for s.Scan() {
			said.WriteString(s.Text() + "\n")
		}
	}()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.ProtocolVersion20260728
	init.Params.ClientInfo = mcp.Implementation{Name: "codex-mcp-client"}
	if _, err := host.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "input_required"
	res, err := host.CallTool(ctx, req)
	host.Close()
	<-done // the bridge ended: all it said is in
	return res, said.String(), err
}

// exitCode is a command's exit code; -1 when it did not run.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}
