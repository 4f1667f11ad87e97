package cli

import (
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDesktopLostDisplay kills the X server under the running app: the
// windows' process ends with a message (Xlib's own, or ours for a GLFW
// panic) and a non-zero exit code, not a panic; the core goes on
// answering, and quits cleanly when told.
func TestDesktopLostDisplay(t *testing.T) {
	d := startDesktop(t, "")
	d.window("Servers")
	d.x.Process.Kill()
	d.x.Wait()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(d.log.String(), "the windows' process ended") {
		if time.Now().After(deadline) {
			t.Fatal("the windows' process still runs without its display")
		}
		time.Sleep(50 * time.Millisecond)
	}
	log := d.log.String()
	if strings.Contains(log, "panic:") || strings.Contains(log, "goroutine ") {
		t.Errorf("the windows' process panicked:\n%s", log)
	}
	if !regexp.MustCompile(`the windows' process ended" err="exit status [13]"`).MatchString(log) {
		t.Errorf("the windows' process did not end with a failure that is not a panic:\n%s", log)
	}
	if !strings.Contains(log, "display") && !strings.Contains(log, "X connection") && !strings.Contains(log, "X server") {
		t.Errorf("no word about the display:\n%s", log)
	}
	if list, err := d.run(d.bin, "servers"); err != nil || !strings.Contains(list, "demo") {
		t.Errorf("the core does not answer without a display: %v\n%s", err, list)
	}
	d.app.Process.Signal(syscall.SIGTERM)
	if err := d.app.Wait(); err != nil {
		t.Errorf("quit: %v", err)
	}
	if left := d.busesLeft(); len(left) > 0 {
		t.Errorf("DBus processes outlived the app: %v", left)
	}
}
