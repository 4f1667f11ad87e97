package app

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/elicitdesk/elicitdesk/internal/core"
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

// TestTrayHostGoesAndComesBack: when the desktop's tray host goes away
// while a request waits, the Servers window stands in for the tray at
// once, with the app's menu, and closing it asks whether to keep running;
// when a host comes back, the window, once hidden, loses the menu, and
// closing it only hides it.
func TestTrayHostGoesAndComesBack(t *testing.T) {
	h := startWith(t, `{"mcpServers":{}}`, func(o *Options, _ *core.Options) { o.TrayShown = true })
	h.askForm(context.Background(), "shop", "Your name?")
	h.request(0)
	h.core.TrayHost(false) // the panel crashed
	w := h.d.serversWin
	h.eventually("the Servers window standing in", func() bool {
		return !h.d.opts.TrayShown && !w.HiddenAs(w.Window()) && w.Window().MainMenu() != nil
	})
	h.ui(func() {
		pressKey(w.Window().Canvas(), fyne.KeyEscape)
		q := h.question()
		if q == nil {
			t.Fatal("closing the stand-in did not ask whether to keep running")
		}
		test.Tap(button(t, q.Content(), "Keep running in the background"))
		if !w.HiddenAs(w.Window()) || h.d.ctx.Err() != nil {
			t.Fatal("kept running, but the window shows, or the app quit")
		}
	})

	h.core.TrayHost(true) // a panel again
	h.eventually("the tray's ways again", func() bool { return h.d.opts.TrayShown && w.Window().MainMenu() == nil })
	h.ui(func() {
		h.d.show(core.Show{Window: core.WindowServers})
		pressKey(w.Window().Canvas(), fyne.KeyEscape)
		if h.question() != nil || !w.HiddenAs(w.Window()) {
			t.Fatal("with a tray host, closing the Servers window did more than hide it")
		}
	})

	// Gone while the window shows, back while it still does: the menu
	// stays until it is hidden.
	h.core.TrayHost(false)
	h.eventually("the stand-in again", func() bool { return !w.HiddenAs(w.Window()) && w.Window().MainMenu() != nil })
	h.core.TrayHost(true)
	h.eventually("a host again", func() bool { return h.d.opts.TrayShown })
	h.ui(func() {
		if w.Window().MainMenu() == nil {
			t.Error("the menu went from under the person's pointer")
		}
		pressKey(w.Window().Canvas(), fyne.KeyEscape)
		if h.question() != nil || !w.HiddenAs(w.Window()) || w.Window().MainMenu() != nil {
			t.Error("closing hid not the window alone, or kept the menu")
		}
	})
}

// TestIconOfAHostWithoutMenus: a click on the icon where the tray host
// shows no menus (swaybar) opens the Servers window with the tray's
// entries in its menu bar; closing it then only hides it, the icon
// staying.
func TestIconOfAHostWithoutMenus(t *testing.T) {
	h := startWith(t, `{"mcpServers":{}}`, func(o *Options, _ *core.Options) { o.TrayShown = true })
	w := h.d.serversWin
	h.core.Show(core.Show{Window: core.WindowServers, Menu: true}) // as tray.OnIcon asks
	h.eventually("the Servers window with the menu", func() bool {
		return !w.HiddenAs(w.Window()) && w.Window().MainMenu() != nil
	})
	h.ui(func() {
		labels := []string{}
		for _, it := range w.Window().MainMenu().Items[0].Items {
			labels = append(labels, it.Label)
		}
		if !slices.Contains(labels, "History…") || !slices.Contains(labels, "Quit") {
			t.Errorf("the menu holds %q", labels)
		}
		pressKey(w.Window().Canvas(), fyne.KeyEscape)
		if h.question() != nil || !w.HiddenAs(w.Window()) || h.d.ctx.Err() != nil {
			t.Error("closing did more than hide the window")
		}
	})
}
