package serversview

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/internal/testkit/demotest"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

// TestCallWindowsFitSmallScreen opens the call window of every demo tool:
// each one's content shrinks to a 1440×900 screen at scale 2 less the
// window manager's frame (716×430 Fyne units), and the window opens no
// bigger.
func TestCallWindowsFitSmallScreen(t *testing.T) {
	room := screen.Screen{Work: screen.Area{Width: 1440, Height: 900}, Scale: 2}.Size()
	// The test driver draws at scale 1, and a window is sized again at
	// the scale it is shown at: the same room at scale 1, frame included.
	small := screen.Screen{Work: screen.Area{Width: int(room.Width) + 8, Height: int(room.Height) + 40}, Scale: 1}
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	h.w.deps.Screen = func() screen.Screen { return small }
	for _, tool := range []string{demo.ToolAskEveryField, demo.ToolAskConfirm, demo.ToolAskTwice, demo.ToolAskThenGiveUp, demo.ToolOpenLink, demo.ToolNeedsLink, demo.ToolInputRequired} {
		t.Run(tool, func(t *testing.T) {
			c := h.openCall("demo", tool)
			m := c.win.Content().MinSize()
			if c.win.Padded() {
				m = m.AddWidthHeight(2*theme.Padding(), 2*theme.Padding())
			}
			if m.Width > room.Width || m.Height > room.Height {
				t.Errorf("needs %v, more than %v", m, room)
			}
			if got := c.win.Canvas().Size(); got.Width > room.Width || got.Height > room.Height {
				t.Errorf("opens at %v, more than %v", got, room)
			}
			c.win.Close()
		})
	}
	// The Servers window itself, on its Tools tab.
	win := h.w.Window()
	if m := win.Content().MinSize().Add(fyne.NewSize(2*theme.Padding(), 2*theme.Padding())); m.Width > room.Width || m.Height > room.Height {
		t.Errorf("the Servers window needs %v, more than %v", m, room)
	}
}
