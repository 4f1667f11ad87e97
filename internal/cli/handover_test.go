//go:build linux

package cli

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestHandOver: the app's binary hands the app over to the core's own
// executable beside it, unless that is older than the binary (a binary
// built alone since, as go build does): then it runs its own core rather
// than a stale one.
func TestHandOver(t *testing.T) {
	t.Parallel()
	bin := os.Getenv(binEnv)
	if bin == "" {
		t.Skip(binEnv + " is not set: make test builds the app and sets it")
	}
	tests := []struct {
		name  string
		age   time.Duration // of the core, before the app's binary
		wantC bool          // the core's own executable runs the core
	}{
		{"a core as old as the app's binary", 0, true},
		{"a stale core", time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			app, core := filepath.Join(dir, "elicitdesk"), filepath.Join(dir, coreName)
			for from, to := range map[string]string{bin: app, filepath.Join(filepath.Dir(bin), coreName): core} {
				if err := copyFile(from, to); err != nil {
					t.Fatalf("%v (make build builds %s beside %s)", err, coreName, bin)
				}
			}
			st, err := os.Stat(app)
			if err != nil {
				t.Fatal(err)
			}
			at := st.ModTime().Add(-tt.age)
			if err := os.Chtimes(core, at, at); err != nil {
				t.Fatal(err)
			}
			_, homeEnv := privateHome(t)
			cmd := exec.Command(app, "-v", "-background")
			cmd.Env = append(os.Environ(), append(homeEnv, "DISPLAY=", "WAYLAND_DISPLAY=", "DBUS_SESSION_BUS_ADDRESS=disabled:")...)
			said := make(chan struct{})
			cmd.Stderr = firstWrite(said)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				cmd.Process.Kill()
				cmd.Wait()
			})
			<-said // the core's first log line: it runs
			ran, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", cmd.Process.Pid))
			want := app
			if tt.wantC {
				want = core
			}
			if err != nil || ran != want {
				t.Errorf("the core runs %s (%v), want %s", ran, err, want)
			}
		})
	}
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
