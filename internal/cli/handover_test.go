//go:build linux

package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/corecmd"
)

// TestHandOver: the app's binary hands the app over to the core's own
// executable beside it, which runs the demo server by the app's binary
// and passes corecmd.AppEnv to no child; unless the core is older than the
// binary (one built alone since, as go build does), may not be run or
// does not start: then the app's binary runs its own core.
func TestHandOver(t *testing.T) {
	t.Parallel()
	bin := os.Getenv(binEnv)
	if bin == "" {
		t.Skip(binEnv + " is not set: make test builds the app and sets it")
	}
	tests := []struct {
		name  string
		age   time.Duration // of the core, before the app's binary
		mode  os.FileMode   // of the core
		open  bool          // the core open for writing, as while it is built
		wantC bool          // the core's own executable runs the core
		why   string        // what the app's binary says when it runs the core itself (-v)
	}{
		{"a core as old as the app's binary", 0, 0o755, false, true, ""},
		{"a stale core", time.Hour, 0o755, false, false, "is older than this binary: this process runs the core itself"},
		{"a core that may not be run", 0, 0o644, false, false, "may not be run: this process runs the core itself"},
		{"a core being written", 0, 0o755, true, false, "(text file busy): this process runs the core itself"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			app, core := filepath.Join(dir, "elicitdesk"), filepath.Join(dir, corecmd.Name)
			for from, to := range map[string]string{bin: app, filepath.Join(filepath.Dir(bin), corecmd.Name): core} {
				if err := copyFile(from, to); err != nil {
					t.Fatalf("%v (make build builds %s beside %s)", err, corecmd.Name, bin)
				}
			}
			st, err := os.Stat(app)
			if err != nil {
				t.Fatal(err)
			}
			if tt.open {
				w, err := os.OpenFile(core, os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { w.Close() })
			}
			at := st.ModTime().Add(-tt.age)
			if err := os.Chmod(core, tt.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(core, at, at); err != nil {
				t.Fatal(err)
			}
			_, homeEnv := privateHome(t)
			cmd := exec.Command(app, "-v", "-background")
			cmd.Env = append(os.Environ(), append(homeEnv, "DISPLAY=", "WAYLAND_DISPLAY=", "DBUS_SESSION_BUS_ADDRESS=disabled:")...)
			said := make(chan struct{})
			var log lockedBuffer
			cmd.Stderr = io.MultiWriter(&log, firstWrite(said))
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var waitErr error
			exited := make(chan struct{})
			go func() {
				waitErr = cmd.Wait()
				close(exited)
			}()
			t.Cleanup(func() {
				cmd.Process.Kill()
				<-exited
			})
			select {
			case <-said: // the core's first log line: it runs
			case <-exited:
				t.Fatalf("the app ended (%v) without a word", waitErr)
			case <-time.After(time.Minute):
				t.Fatal("the app said nothing in a minute")
			}
			ran, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", cmd.Process.Pid))
			want := app
			if tt.wantC {
				want = core
			}
			if err != nil || ran != want {
				t.Fatalf("the core runs %s (%v), want %s", ran, err, want)
			}
			if first, _, _ := strings.Cut(log.String(), "\n"); tt.why == "" && strings.Contains(first, "runs the core itself") || !strings.Contains(first, tt.why) {
				t.Errorf("the app's first words: %q, want %q", first, tt.why)
			}
			demo := demoChild(t, cmd.Process.Pid)
			if args, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", demo)); !bytes.Contains(args, []byte("\x00"+app+"\x00demo-server")) {
				t.Errorf("the demo server's keeper runs %q, want the app's binary %s", args, app)
			}
			if env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", demo)); bytes.Contains(env, []byte(corecmd.AppEnv+"=")) {
				t.Errorf("the core passed %s to the demo server", corecmd.AppEnv)
			}
		})
	}
}

// demoChild waits for the core pid to start its first server, the demo
// server of a first start, and returns the process that runs it (its
// keeper), once it runs the keeper: a child caught between its fork and
// its exec shows the core's command line, or none.
func demoChild(t *testing.T, pid int) int {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, kid := range childrenOf(pid) {
			if args, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", kid)); bytes.HasPrefix(args, []byte("elicitdesk-keeper\x00")) {
				return kid
			}
		}
	}
	t.Fatalf("the core (%d) started no server's keeper in a minute", pid)
	return 0
}

// firstWrite is a writer that closes said at its first write and drops
// what it is given.
func firstWrite(said chan struct{}) io.Writer {
	var once sync.Once
	return writerFunc(func(p []byte) (int, error) {
		once.Do(func() { close(said) })
		return len(p), nil
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
