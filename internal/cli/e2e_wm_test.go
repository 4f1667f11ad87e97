package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startOpenbox runs openbox on the display in env and returns once it
// manages windows: its startup command runs when it is ready.
func startOpenbox(t testing.TB, env []string) {
	t.Helper()
	if _, err := exec.LookPath("openbox"); err != nil {
		t.Fatalf("openbox is needed (make test-deps installs it): %v", err)
	}
	ready := filepath.Join(t.TempDir(), "ready")
	wm := exec.Command("openbox", "--startup", "touch "+ready)
	wm.Env = env
	if err := wm.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		wm.Process.Kill()
		wm.Wait()
	})
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			return
		}
	}
	t.Fatal("openbox did not start")
}

// busesLeft lists the DBus daemons (and dbus-launch) started for the
// app: they inherited its HOME, which no other process has.
func (d *desktop) busesLeft() []string {
	var left []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		comm, _ := os.ReadFile(filepath.Join(dir, "comm"))
		if !strings.HasPrefix(string(comm), "dbus-") {
			continue
		}
		env, _ := os.ReadFile(filepath.Join(dir, "environ"))
		for _, v := range bytes.Split(env, []byte{0}) {
			if string(v) == "HOME="+d.home {
				left = append(left, filepath.Base(dir)+" "+strings.TrimSpace(string(comm)))
			}
		}
	}
	return left
}

// call starts `elicitdesk call -answer desk` of a demo tool.
func (d *desktop) call(tool string) (*exec.Cmd, *bytes.Buffer) {
	d.t.Helper()
	return d.callArgs(tool, "{}")
}

// quitAndCheckBuses ends the app with an interrupt and checks that it left no
// DBus daemon behind.
func (d *desktop) quitAndCheckBuses() {
	d.t.Helper()
	d.app.Process.Signal(os.Interrupt)
	if err := d.app.Wait(); err != nil {
		d.t.Errorf("quit: %v", err)
	}
	if left := d.busesLeft(); len(left) > 0 {
		d.t.Errorf("DBus processes outlived the app: %v", left)
	}
}
