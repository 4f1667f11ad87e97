package deskclient

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// appEnv makes the test binary, started by startDetached, an app that
// waits for SIGTERM.
const appEnv = "DESKCLIENT_TEST_APP"

func TestMain(m *testing.M) {
	if os.Getenv(appEnv) != "" {
		syscall.Kill(os.Getpid(), syscall.SIGSTOP) // stopped until the test ends it
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestStartDetached: the app is nobody's child, in a session of its own,
// and running follows it until it ends, zombie or reaped.
func TestStartDetached(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(appEnv, "1")
	pid, running, err := startDetached([]string{exe, "-test.run=^$"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	if !running() {
		t.Fatal("running = false at once")
	}
	if ppid := parentOf(t, pid); ppid == os.Getpid() {
		t.Errorf("the app's parent is the process that started it (%d)", ppid)
	}
	if sid, err := unix.Getsid(pid); err != nil || sid != pid {
		t.Errorf("the app's session is %d (%v), want one of its own (%d)", sid, err, pid)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); running(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("running = true after the app was killed")
		}
	}
}

// TestStartDetachedFails: an app that cannot be started is an error.
func TestStartDetachedFails(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/app", []byte("not a program"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, argv := range [][]string{{"/nonexistent/elicitdesk"}, {dir + "/app"}} {
		if pid, _, err := startDetached(argv); err == nil {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("startDetached(%q) started pid %d", argv, pid)
		}
	}
}

// parentOf is process pid's parent, as /proc says.
func parentOf(t *testing.T, pid int) int {
	t.Helper()
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		t.Fatal(err)
	}
	return ppid
}
