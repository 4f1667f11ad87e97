package app

import (
	"context"
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

func TestWaitingText(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{
		{0, ""},
		{1, "1 more request waits for a window:"},
		{2, "2 more requests wait for a window:"},
		{17, "17 more requests wait for a window:"},
	} {
		if got := waitingText(tt.n); got != tt.want {
			t.Errorf("waitingText(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestWaitingLine: 20 requests at once without a tray, 3 windows at most:
// each request window and the Servers window say that 17 more wait, and
// Show brings the oldest of them forward, past the limit.
func TestWaitingLine(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	for i := range 20 { // one server each: a server may have only 5 waiting
		h.askForm(context.Background(), fmt.Sprintf("s%02d", i), "Question")
	}
	h.waitFor(20)
	h.eventually("three windows and the line", func() bool {
		return len(h.d.requests) == 3 && h.d.windowless == 17
	})
	h.ui(func() {
		for _, r := range h.d.requests {
			if !r.more.box.Visible() || r.more.label.Text != "17 more requests wait for a window:" || !shows(r, "17 more requests wait") {
				t.Errorf("%s's window: line %q, shown %v", r.Server.Name, r.more.label.Text, r.more.box.Visible())
			}
		}
		if !h.d.serversMore.box.Visible() || h.d.serversMore.label.Text != "17 more requests wait for a window:" {
			t.Errorf("the Servers window's line %q, shown %v", h.d.serversMore.label.Text, h.d.serversMore.box.Visible())
		}
		test.Tap(button(t, content(h.d.requests[0]), "Show…"))
	})
	h.eventually("a fourth window and 16 left", func() bool { return len(h.d.requests) == 4 && h.d.windowless == 16 })
	h.ui(func() {
		for _, r := range h.d.requests {
			if r.more.label.Text != "16 more requests wait for a window:" {
				t.Errorf("%s's window says %q", r.Server.Name, r.more.label.Text)
			}
		}
	})
}

// TestWaitingLineMakesRoom: a window open before a request waited grows
// by its line, so that the form keeps its room, and shrinks back once
// none waits.
func TestWaitingLineMakesRoom(t *testing.T) {
	h := startOneWindow(t)
	h.askForm(context.Background(), "shop", "Your name?")
	r := h.request(0)
	var before float32
	h.ui(func() { before = r.win.(*formWindow).w.Canvas().Size().Height })
	h.askForm(context.Background(), "notes", "Your city?")
	h.eventually("the line", func() bool { return r.more.box.Visible() })
	h.ui(func() {
		after := r.win.(*formWindow).w.Canvas().Size().Height
		if want := before + r.more.box.MinSize().Height + theme.Padding(); after != want {
			t.Errorf("the window is %v tall with the line, %v without; want %v", after, before, want)
		}
		test.Tap(button(t, content(r), "Decline"))
	})
	h.eventually("notes' window without the line", func() bool {
		return windowNames(h.d) == "notes" && !h.d.requests[0].more.box.Visible()
	})
}

// TestWaitingLineLeavesNoStrip: once the line hides, what was under it
// moves up, though the window keeps its size (a tiling window manager's
// choice, or one at its tallest).
func TestWaitingLineLeavesNoStrip(t *testing.T) {
	test.NewTempApp(t)
	l := newWaitLine(func() {})
	below := widget.NewLabel("demo asks")
	w := test.NewTempWindow(t, container.NewVBox(l.box, below))
	w.Resize(fyne.NewSize(400, 300))
	l.toggled = (&sized{w: w}).grow // not fitted: it keeps its size
	l.set(2)
	if below.Position().Y == 0 {
		t.Fatal("the line shows above nothing")
	}
	l.set(0)
	if y := below.Position().Y; y != 0 {
		t.Errorf("with the line gone, what was under it is %v down", y)
	}
}
