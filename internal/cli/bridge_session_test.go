//go:build linux

package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/testkit/dbustest"
)

// These tests run the bridge the way hosts start it: with only HOME, PATH,
// SHELL and TERM (Codex passes no more; the TypeScript SDK adds LOGNAME and
// USER), so without XDG_RUNTIME_DIR, DISPLAY or DBUS_SESSION_BUS_ADDRESS.
// The bridge must then derive the runtime directory, /run/user/UID, as the
// session's own programs have it. The person's own is there, with their
// app and bus, which a test must not touch: each test runs again in a
// mount namespace of its own, where a fresh tmpfs hides /run/user.

// privateRunEnv names the test that runs in its own mount namespace.
const privateRunEnv = "ELICITDESK_TEST_PRIVATE_RUN"

// privateRun runs t again in a mount namespace of its own and reports
// whether this is that run; there a fresh tmpfs hides /run/user, and it
// makes this user's /run/user/UID, the runtime directory a session's
// programs have and a bridge started without XDG_RUNTIME_DIR derives. The
// first run only reports the second's outcome. Skips t where no mount
// namespace can be made (containers without CAP_SYS_ADMIN; a user without
// root where unprivileged user namespaces are off).
func privateRun(t *testing.T) (runtime string, inside bool) {
	t.Helper()
	if os.Getenv(privateRunEnv) != t.Name() {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(self, "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.v", "-test.timeout=2m")
		cmd.Env = append(os.Environ(), privateRunEnv+"="+t.Name())
		cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS} // Go makes / private to it first
		if uid := os.Getuid(); uid != 0 {
			cmd.SysProcAttr = &syscall.SysProcAttr{
				Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS, // root there, this user here
				UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: uid, Size: 1}},
				GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
			}
		}
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Skipf("cannot make a mount namespace to hide /run/user in (%v)", err)
		}
		if err != nil {
			t.Fatalf("in its own mount namespace: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
			t.Fatalf("in its own mount namespace, the test did not pass:\n%s", out)
		}
		t.Logf("in its own mount namespace:\n%s", out)
		return "", false
	}
	hide := "/run/user"
	if _, err := os.Stat(hide); err != nil {
		hide = "/run" // and make /run/user in the tmpfs
	}
	if err := syscall.Mount("tmpfs", hide, "tmpfs", 0, "mode=0755"); err != nil {
		t.Fatalf("cannot hide %s: %v", hide, err)
	}
	if err := os.MkdirAll("/run/user", 0o755); err != nil {
		t.Fatal(err)
	}
	runtime = filepath.Join("/run/user", strconv.Itoa(os.Getuid()))
	if err := os.Mkdir(runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	return runtime, true
}

// session is a desktop session's user: a home, and the runtime directory
// the session's programs have.
type session struct {
	runtime string // /run/user/UID
	home    string
	exe     string // this test binary, as the elicitdesk command
}

// newSession is a session in runtime, the directory privateRun made.
func newSession(t *testing.T, runtime string) *session {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &session{runtime: runtime, home: t.TempDir(), exe: exe}
}

// command runs name in env, in the session's home.
func (s *session) command(env []string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = env
	cmd.Dir = s.home
	return cmd
}

// sessionEnv is the environment of the user's desktop session, with extra.
func (s *session) sessionEnv(extra ...string) []string {
	return append([]string{"HOME=" + s.home, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + s.runtime}, extra...)
}

// hostEnv is what Codex passes its servers: no more, so no runtime
// directory, display or bus; and the marker that makes the test binary
// the elicitdesk command.
func (s *session) hostEnv() []string {
	return []string{"HOME=" + s.home, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/sh", "TERM=dumb", cliEnv + "=1"}
}

// TestBridgeStrippedEnvReachesApp: a bridge started with a host's
// stripped environment finds the endpoint of the app the session started.
func TestBridgeStrippedEnvReachesApp(t *testing.T) {
	t.Parallel()
	runtime, inside := privateRun(t)
	if !inside {
		return
	}
	s := newSession(t, runtime)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	app := s.command(s.sessionEnv(fakeCoreEnv+"=1"), s.exe)
	app.Stderr = &logBuffer{}
	out, err := app.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		app.Process.Signal(syscall.SIGTERM)
		app.Wait()
	})
	if line, err := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		t.Fatalf("the app did not start (%v):\n%s", err, app.Stderr)
	}

	b := startBridge(t, ctx, s.command(s.hostEnv(), s.exe, "bridge", "--", s.exe, "demo-server"))
	if got := b.confirm(t, ctx); !strings.Contains(got, "The client accepted.") || !strings.Contains(got, `"confirm":true`) {
		t.Errorf("the host got %s, want the app's accept\nthe bridge said:\n%s", got, b.stderr)
	}
}

// TestBridgeActivatesCore: with no app running, a bridge started with a
// host's stripped environment finds the session bus at
// /run/user/UID/bus and has it start the app from the D-Bus service file
// make install installs. The app then runs with the bus's environment, is
// a child of the bus, not of the bridge, and outlives the bridge.
func TestBridgeActivatesCore(t *testing.T) {
	t.Parallel()
	runSession, err := exec.LookPath("dbus-run-session")
	if err != nil {
		t.Skip("dbus-run-session is not installed (make test-deps installs dbus-daemon)")
	}
	runtime, inside := privateRun(t)
	if !inside {
		return
	}
	s := newSession(t, runtime)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// The session bus, as the session runs it, with the service file that
	// make install writes, naming this test binary as the installed one.
	dir := t.TempDir()
	services := filepath.Join(dir, "services")
	if err := os.Mkdir(services, 0o755); err != nil {
		t.Fatal(err)
	}
	asset, err := os.ReadFile(filepath.Join("..", "..", "assets", "linux", appID+".service"))
	if err != nil {
		t.Fatal(err)
	}
	file := regexp.MustCompile(`(?m)^Exec=\S+`).ReplaceAllLiteral(asset, []byte("Exec="+s.exe))
	if err := os.WriteFile(filepath.Join(services, appID+".service"), file, 0o644); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "session.conf")
	busPath := filepath.Join(s.runtime, "bus")
	if err := os.WriteFile(config, []byte(dbustest.Config("unix:path="+busPath, services)), 0o644); err != nil {
		t.Fatal(err)
	}
	// The session's environment, which the bus gives what it starts; the
	// marker makes the test binary it starts the fake core.
	bus := s.command(s.sessionEnv(fakeCoreEnv+"=1"), runSession, "--config-file="+config, "--", "cat")
	busLog := &logBuffer{}
	bus.Stderr = busLog
	busEnd, err := bus.StdinPipe() // cat ends, and so the session, when it closes
	if err != nil {
		t.Fatal(err)
	}
	if err := bus.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		busEnd.Close()
		bus.Wait()
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if fi, err := os.Stat(busPath); err == nil && fi.Mode()&os.ModeSocket != 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session bus did not listen at %s:\n%s", busPath, busLog)
		}
	}

	b := startBridge(t, ctx, s.command(s.hostEnv(), s.exe, "bridge", "-v", "--", s.exe, "demo-server"))
	got := b.confirm(t, ctx)
	report, err := os.ReadFile(filepath.Join(s.home, "core.json"))
	if err != nil {
		t.Fatalf("no app started (%v); the host got %s\nthe bridge said:\n%s\nthe bus said:\n%s", err, got, b.stderr, busLog)
	}
	var core coreReport
	if err := json.Unmarshal(report, &core); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(core.Pid, syscall.SIGTERM) })
	if !strings.Contains(got, "The client accepted.") || !strings.Contains(got, `"confirm":true`) {
		t.Errorf("the host got %s, want the app's accept\nthe bridge said:\n%s", got, b.stderr)
	}
	if !slices.Equal(core.Args, []string{"-background"}) {
		t.Errorf("the bus started the app with %q, want -background: a bridge's app opens no window before the request", core.Args)
	}
	if !slices.Contains(core.Env, "XDG_RUNTIME_DIR="+s.runtime) || !slices.Contains(core.Env, "DBUS_STARTER_BUS_TYPE=session") || slices.Contains(core.Env, cliEnv+"=1") {
		t.Errorf("the app runs in %q, want the session's environment, which the bus gives what it starts, not the host's", core.Env)
	}
	if slices.Contains(core.Ancestors, b.cmd.Process.Pid) {
		t.Errorf("the app (pid %d) is a descendant of the bridge (pid %d): %v", core.Pid, b.cmd.Process.Pid, core.Ancestors)
	}
	if core.Parent != "dbus-daemon" {
		t.Errorf("the app's parent is %q, want the bus's dbus-daemon", core.Parent)
	}

	// A host that goes away, and may end its server's children, leaves the
	// app running: the next bridge reaches the same one.
	b.end()
	again := startBridge(t, ctx, s.command(s.hostEnv(), s.exe, "bridge", "--", s.exe, "demo-server"))
	if got := again.confirm(t, ctx); !strings.Contains(got, "The client accepted.") {
		t.Errorf("the next host got %s, want the app's accept\nthe bridge said:\n%s", got, again.stderr)
	}
	var now coreReport
	if report, err := os.ReadFile(filepath.Join(s.home, "core.json")); err != nil || json.Unmarshal(report, &now) != nil || now.Pid != core.Pid || !alive(core.Pid) {
		t.Errorf("the app (pid %d) ended with the bridge that had it started; the next bridge reached pid %d", core.Pid, now.Pid)
	}
}
