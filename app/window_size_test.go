package app

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/internal/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

func TestFitCapsToTheMaximum(t *testing.T) {
	if got := fit(fyne.NewSize(33094, 5000)); got.Width > maxWidth || got.Height > maxHeight {
		t.Errorf("fit gave %v", got)
	}
	if got := fit(fyne.NewSize(300, 200)); got != fyne.NewSize(300, 200) {
		t.Errorf("fit changed a small size: %v", got)
	}
	huge := widget.NewLabel(strings.Repeat("W", 3000)) // no wrapping: as wide as its text
	if m := capped(huge).MinSize(); m.Width > maxWidth {
		t.Errorf("capped content is %v wide", m.Width)
	}
}

// TestLinkStaysInView gives a URL request a long serverInfo and message:
// the link, where it leads, its warnings and Open link stay inside the
// window, and the server's words scroll below the link.
func TestLinkStaysInView(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	long := untrusted.Text(strings.Repeat("words the server wrote ", 300))
	who := servers.Identity{Name: "shop", Target: "https://shop.example/mcp",
		Reported: servers.ServerInfo{Name: long, Title: long, Version: long}}
	h.ask(context.Background(), who, servers.Params{Message: long, Mode: servers.ModeURL, ElicitationID: "e",
		URL: "http://shop.example/" + untrusted.Text(strings.Repeat("path/", 600))})
	r := h.request(0)
	h.ui(func() {
		lw := r.win.(*linkWindow)
		size := lw.w.Canvas().Size()
		if m := lw.w.Content().MinSize(); m.Width > 720 || m.Height > 420 {
			t.Fatalf("the content needs %v, more than the window", m)
		}
		inView := func(what string, o fyne.CanvasObject) {
			t.Helper()
			p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
			if p.X < 0 || p.Y < 0 || p.X+o.Size().Width > size.Width+1 || p.Y+o.Size().Height > size.Height+1 || o.Size().Height == 0 {
				t.Errorf("%s at %v size %v, outside the window %v", what, p, o.Size(), size)
			}
		}
		inView("Open link", button(t, content(r), "Open link"))
		var leads, warn, said fyne.CanvasObject
		for _, x := range test.LaidOutObjects(content(r)) {
			if l, ok := x.(*widget.Label); ok && l.Visible() {
				switch {
				case strings.HasPrefix(l.Text, "It leads to"):
					leads = l
				case l.Importance == widget.WarningImportance && strings.Contains(strings.ToLower(l.Text), "https"):
					warn = l
				case strings.HasPrefix(l.Text, "Reported by the server") && said == nil:
					said = l
				}
			}
		}
		if leads == nil || warn == nil || said == nil {
			t.Fatalf("missing: leads %v, warning %v, serverInfo %v", leads, warn, said)
		}
		inView("where the link leads", leads)
		inView("the link's warning", warn)
		d := fyne.CurrentApp().Driver()
		if d.AbsolutePositionForObject(said).Y < d.AbsolutePositionForObject(warn).Y {
			t.Error("the server's words come before the link's warning")
		}
	})
}
