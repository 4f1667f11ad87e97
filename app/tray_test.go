package app

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"github.com/elicitdesk/elicitdesk/internal/desktop/tray"
)

// TestTrayMenuOpensRequests: the core's tray lists every request that
// waits, and picking one opens its window, also one waiting for a window.
func TestTrayMenuOpensRequests(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.ui(func() { h.d.queue.max = 1 })
	h.askForm(context.Background(), "shop", "Your name?")
	h.askForm(context.Background(), "notes", "Your city?")
	h.request(1)
	var queued *request
	h.ui(func() { queued = h.d.queue.waiting[0] })
	var labels []string
	for _, i := range h.core.TrayItems() {
		labels = append(labels, i.Label)
	}
	if got := strings.Join(labels, "|"); !strings.HasPrefix(got, "2 requests waiting||") || !strings.Contains(got, "|shop: Your name? (") || !strings.Contains(got, "|notes: Your city? (") {
		t.Errorf("menu %q", labels)
	}
	trayItem(t, h, queued.Server.Name+": ").Action()
	h.eventually("the queued request's window", func() bool { return queued.win != nil })
}

// trayItem is the core's tray entry whose label starts with prefix.
func trayItem(t *testing.T, h *harness, prefix string) tray.Item {
	t.Helper()
	for _, i := range h.core.TrayItems() {
		if strings.HasPrefix(i.Label, prefix) && !i.Separator {
			return i
		}
	}
	t.Fatalf("no tray entry %q", prefix)
	return tray.Item{}
}

// trayMenu is the core's tray menu as a Fyne menu, for the checks of what
// a menu shows.
func trayMenu(h *harness) *fyne.Menu {
	m := fyne.NewMenu("")
	for _, i := range h.core.TrayItems() {
		if i.Separator {
			m.Items = append(m.Items, fyne.NewMenuItemSeparator())
			continue
		}
		m.Items = append(m.Items, &fyne.MenuItem{Label: i.Label, Disabled: i.Disabled, Checked: i.Checked})
	}
	return m
}
