package cli

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestDesktopLostDisplay kills the X server under the running app: it
// ends with a message (Xlib's own, or ours for a GLFW panic) and a
// non-zero exit code, not a panic.
func TestDesktopLostDisplay(t *testing.T) {
	d := startDesktop(t, "")
	d.window("Servers")
	d.x.Process.Kill()
	d.x.Wait()
	done := make(chan error, 1)
	go func() { done <- d.app.Wait() }()
	select {
	case err := <-done:
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		log := d.log.String()
		if code <= 0 || code == 2 { // 2: Go's exit code for a panic
			t.Errorf("exit code %d, want a failure that is not a panic", code)
		}
		if strings.Contains(log, "panic:") || strings.Contains(log, "goroutine ") {
			t.Errorf("the app panicked:\n%s", log)
		}
		if !strings.Contains(log, "display") && !strings.Contains(log, "X connection") && !strings.Contains(log, "X server") {
			t.Errorf("no word about the display:\n%s", log)
		}
		t.Logf("exit code %d", code)
	case <-time.After(30 * time.Second):
		t.Fatal("the app still runs without its display")
	}
	if left := d.busesLeft(); len(left) > 0 {
		t.Errorf("DBus processes outlived the app: %v", left)
	}
}
