package cli

import (
	"strings"
	"testing"
	"time"
)

// TestDesktopEscapeUnderWindowManager dismisses requests arriving half a
// second apart with Escape under openbox, where focus passes to another
// window when one closes: the app keeps running and answering, each
// caller hears "cancel", and no DBus daemon is left behind.
func TestDesktopEscapeUnderWindowManager(t *testing.T) {
	d := startDesktopWith(t, "", true)
	d.window("Servers")

	// Each request comes half a second after the last was dismissed:
	// sooner, a new window takes the focus between xdotool's focus and
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
		time.Sleep(500 * time.Millisecond) // the tester's pace
	}
	d.window("Servers") // still shown: Escape never closed it

	// Still answering: a further request gets a window.
	c, out := d.call("ask_confirm")
	id := d.window("^demo: ", seen...)
	d.keys(id, "", "Escape")
	if err := c.Wait(); err != nil {
		t.Fatalf("further call: %v\n%s", err, out)
	}
	hist, err := d.run(d.bin, "history", "-json")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(hist, `"outcome":"cancelled"`); got != n+1 {
		t.Errorf("history lists %d cancels, want %d:\n%s", got, n+1, hist)
	}
	if strings.Contains(d.log.String(), "state=stopped") {
		t.Errorf("a server stopped while the app ran:\n%s", d.log)
	}
	d.quitAndCheckBuses()
}
