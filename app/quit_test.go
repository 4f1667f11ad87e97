package app

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func TestQuitQuestion(t *testing.T) {
	if q := quitQuestion(0); q != "" {
		t.Errorf("asks with nothing waiting: %q", q)
	}
	if q := quitQuestion(1); !strings.Contains(q, "A request") {
		t.Errorf("one request: %q", q)
	}
	if q := quitQuestion(3); !strings.Contains(q, "3 requests") {
		t.Errorf("three requests: %q", q)
	}
}

// TestClosingServersAsksWhileRequestsWait closes the Servers window,
// which quits where there is no tray: with a request waiting it asks, and
// Escape or Keep running keep the app and the request; Quit quits.
func TestClosingServersAsksWhileRequestsWait(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.askForm(context.Background(), "shop", "Your name?")
	r := h.request(0)
	h.ui(func() {
		h.d.closeWithoutTray()
		if h.d.asking == nil || h.d.ctx.Err() != nil {
			t.Fatal("quit without asking")
		}
		h.d.serversKeys(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if h.d.asking != nil || h.d.ctx.Err() != nil || r.ended {
			t.Fatal("Escape did not just put the question away")
		}
		h.d.closeWithoutTray()
		test.Tap(button(t, h.d.asking.Content, "Keep running"))
		if h.d.asking != nil || h.d.ctx.Err() != nil {
			t.Fatal("Keep running did not keep running")
		}
		h.d.closeWithoutTray()
		test.Tap(button(t, h.d.asking.Content, "Quit"))
		if h.d.ctx.Err() == nil {
			t.Fatal("Quit did not quit")
		}
	})
}

func TestClosingServersQuitsWhenNothingWaits(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.ui(func() {
		h.d.closeWithoutTray()
		if h.d.asking != nil || h.d.ctx.Err() == nil {
			t.Fatal("asked, or did not quit, with nothing waiting")
		}
	})
}
