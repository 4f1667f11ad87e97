package cli

import (
	"strings"
	"testing"
	"time"
)

// TestDesktopEscapeUnderWindowManager dismisses requests one after another
// with Escape under openbox, where focus passes to another window when one
// closes: the app keeps running and answering, each caller hears "cancel",
// and no DBus daemon is left behind.
func TestDesktopEscapeUnderWindowManager(t *testing.T) {
	t.Parallel() // a display and a HOME of its own; mostly the person's pauses
	d := startDesktopWith(t, "", true)
	servers := d.window("Servers")

	// Each request comes once openbox has given the focus back to the
	// Servers window: sooner, that can happen between xdotool's focus and
	// its key, and Escape lands there (X delivers keys to the focus).
	const n = 5
	var seen []string
	for i := range n {
		c, out := d.call("ask_confirm")
		id := d.window("^demo: ", seen...)
		seen = append(seen, id)
		d.keys(id, "", "Escape")
		if err := c.Wait(); err != nil {
			t.Fatalf("call %d: %v\n%s", i, err, out)
		}
		if !strings.Contains(out.String(), `\"action\":\"cancel\"`) {
			t.Errorf("call %d was not cancelled:\n%s", i, out)
		}
		d.focused(servers)
	}
	d.window("Servers") // still shown: Escape never closed it

	// Still answering: a further request gets a window.
	c, out := d.call("ask_confirm")
	id := d.window("^demo: ", seen...)
	d.keys(id, "", "Escape")
	if err := c.Wait(); err != nil {
		t.Fatalf("further call: %v\n%s", err, out)
	}
	hist := d.history(func(hist string) bool { return strings.Count(hist, `"outcome":"cancelled"`) >= n+1 })
	if got := strings.Count(hist, `"outcome":"cancelled"`); got != n+1 {
		t.Errorf("history lists %d cancels, want %d:\n%s", got, n+1, hist)
	}
	if strings.Contains(d.log.String(), "state=stopped") {
		t.Errorf("a server stopped while the app ran:\n%s", d.log)
	}
	d.quitAndCheckBuses()
}

// focused waits until window id has the keyboard focus.
func (d *desktop) focused(id string) {
	d.t.Helper()
	var focus string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if focus, _ = d.run("xdotool", "getwindowfocus"); strings.TrimSpace(focus) == id {
			return
		}
	}
	d.t.Fatalf("window %s did not get the focus (%q has it)", id, strings.TrimSpace(focus))
}
