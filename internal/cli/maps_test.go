package cli

import (
	"bufio"
	"os/exec"
	"regexp"
	"time"
)

// mapEvent is a top-level window being mapped or unmapped, as the X server
// reported it to a client of its own, and when that client read it.
type mapEvent struct {
	At     time.Time
	Window string
	Mapped bool
}

// xevHeader is the first line xev prints of a MapNotify or UnmapNotify on
// the root window's substructure; the event's window is on the next line.
var (
	xevHeader = regexp.MustCompile(`^(Map|Unmap)Notify event`)
	xevWindow = regexp.MustCompile(`window (0x[0-9a-f]+),`)
)

// watchMaps reports every top-level window mapped or unmapped on the
// desktop from now on. It watches from outside the app, as another X client
// (xev on the root window), so what it times is what a person would see,
// not what the app believes it did.
func (d *desktop) watchMaps() <-chan mapEvent {
	d.t.Helper()
	xev := exec.Command("xev", "-root", "-event", "substructure")
	xev.Env = d.env
	out, err := xev.StdoutPipe()
	if err != nil {
		d.t.Fatal(err)
	}
	if err := xev.Start(); err != nil {
		d.t.Fatalf("xev is needed (make test-deps installs x11-utils): %v", err)
	}
	d.t.Cleanup(func() {
		xev.Process.Kill()
		xev.Wait()
	})
	events := make(chan mapEvent, 64)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			h := xevHeader.FindStringSubmatch(sc.Text())
			if h == nil || !sc.Scan() {
				continue
			}
			at := time.Now()
			if w := xevWindow.FindStringSubmatch(sc.Text()); w != nil {
				events <- mapEvent{At: at, Window: w[1], Mapped: h[1] == "Map"}
			}
		}
	}()
	return events
}

// nextMap waits for the next window mapped (or, with mapped false,
// unmapped) whose title matches title, and returns when it was.
func (d *desktop) nextMap(events <-chan mapEvent, mapped bool, title string) mapEvent {
	d.t.Helper()
	re := regexp.MustCompile(title)
	timeout := time.After(time.Minute)
	for {
		select {
		case e, ok := <-events:
			if !ok {
				d.t.Fatal("xev ended")
			}
			if e.Mapped != mapped {
				continue
			}
			// An unmapped window may be gone, and its title with it.
			if name, err := d.run("xdotool", "getwindowname", e.Window); !mapped || err == nil && re.MatchString(name) {
				return e
			}
		case <-timeout:
			d.t.Fatalf("no window %q mapped=%v within a minute", title, mapped)
		}
	}
}
