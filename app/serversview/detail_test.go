package serversview

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/internal/testkit/demotest"
)

// TestNameKeepsItsLine narrows the Servers window from wide to its
// narrowest: a server's name stays whole on its line, with the server's
// actions beside it while they fit, and below it once they do not.
func TestNameKeepsItsLine(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "github-enterprise-production"))
	d := h.readyDetail("github-enterprise-production")
	win := h.w.Window()
	name, acts := d.name, d.remove // the name, and the last of its actions
	for _, tt := range []struct {
		width float32
		below bool
	}{{1400, false}, {10, true}, {1400, false}} { // 10: the narrowest the window goes
		win.Resize(fyne.NewSize(tt.width, 700))
		n := fyne.CurrentApp().Driver().AbsolutePositionForObject(name)
		a := fyne.CurrentApp().Driver().AbsolutePositionForObject(acts)
		below := a.Y >= n.Y+name.Size().Height
		if below != tt.below {
			t.Errorf("at width %v: the actions below the name %v, want %v (name at %v size %v, Remove at %v)", tt.width, below, tt.below, n, name.Size(), a)
		}
		// Beside its actions, the name has its whole line; below, the
		// row's width, past the actions' (a longer name wraps there).
		room := d.nameWidth()
		if tt.below {
			room = a.X + acts.Size().Width - n.X
		}
		if name.Size().Width < room {
			t.Errorf("at width %v: the name has %v, less than %v", tt.width, name.Size().Width, room)
		}
	}
}

// TestNarrowWindow: the Servers window goes as narrow as a third of a
// 1280-pixel screen, as a tiling window manager tiles it, and a server's
// actions wrap to stay inside it: a row of them held it wider, and a
// window wider than its tile is cut off.
func TestNarrowWindow(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	d := h.readyDetail("demo")
	win := h.w.Window()
	// The narrowest it goes: its content's least width, which is also the
	// least a window manager may make it.
	win.Resize(fyne.NewSize(win.Content().MinSize().Width, 700))
	width := win.Canvas().Size().Width
	if width > 1280/3 {
		t.Errorf("the window goes no narrower than %v", width)
	}
	for _, b := range []fyne.CanvasObject{d.traffic, d.edit, d.toggle, d.remove} {
		if p := fyne.CurrentApp().Driver().AbsolutePositionForObject(b); p.X < 0 || p.X+b.Size().Width > width {
			t.Errorf("an action at %v, %v wide, outside the window %v wide", p.X, b.Size().Width, width)
		}
	}
}

// TestRestart: a connected local server offers Restart, which starts its
// process anew (its author changed its code); a server still failing
// offers Retry now instead.
func TestRestart(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	d := h.readyDetail("demo")
	m := h.w.deps.Servers.(managerServers).m
	before, _ := m.Conn("demo")
	if !d.restart.Visible() || d.restart.Text != "Restart" || d.retry.Visible() {
		t.Fatalf("a ready server: Restart shown %v (%q), Retry now shown %v", d.restart.Visible(), d.restart.Text, d.retry.Visible())
	}
	test.Tap(d.restart)
	h.waitFor("the server started anew", func() bool {
		c, ok := m.Conn("demo")
		return ok && c != before
	})
	<-before.Lost()
}
