package app

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/elicitdesk/elicitdesk/internal/desktop/tray"
)

// TestTrayMenuOpensRequests: the core's tray lists every request that
// waits, those in a window apart from those waiting for one, and picking
// one opens its window, also one waiting for a window past the limit.
func TestTrayMenuOpensRequests(t *testing.T) {
	h := startOneWindow(t)
	h.askForm(context.Background(), "shop", "Your name?")
	h.waitFor(1) // shop's is the oldest: it has the one window
	h.askForm(context.Background(), "notes", "Your city?")
	h.waitFor(2)
	if r := h.request(0); r.Server.Name != "shop" {
		t.Fatalf("the window is %s's, not the oldest request's", r.Server.Name)
	}
	var labels []string
	for _, i := range h.core.TrayItems() {
		labels = append(labels, i.Label)
	}
	if got := strings.Join(labels, "|"); !strings.HasPrefix(got, "2 requests waiting||In a window|shop: Your name? (") || !strings.Contains(got, "||Waiting for a window|notes: Your city? (") {
		t.Errorf("menu %q", labels)
	}
	trayItem(t, h, "notes: ").Action()
	h.eventually("the waiting request's window", func() bool { return windowNames(h.d) == "shop notes" })
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

// TestMenuLoginCheckBox: without a tray the Servers window's menu shows
// "Launch at login" as a check box, ticked or not, and picking it turns
// launch at login on and off.
func TestMenuLoginCheckBox(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.ui(func() {
		var login *fyne.MenuItem
		for _, it := range h.d.appMenu().Items {
			if it.Label == "Launch at login" {
				login = it
			}
		}
		if login == nil {
			t.Fatal("no Launch at login in the menu")
		}
		for _, want := range []struct {
			on   bool
			icon fyne.Resource
		}{{false, theme.CheckButtonIcon()}, {true, theme.CheckButtonCheckedIcon()}, {false, theme.CheckButtonIcon()}} {
			if on := h.d.autostartEnabled(); on != want.on || login.Icon != want.icon {
				t.Errorf("on %v, icon %v; want on %v, icon %v", on, login.Icon.Name(), want.on, want.icon.Name())
			}
			login.Action()
		}
	})
}
