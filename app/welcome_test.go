package app

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
)

// TestWelcomeAtFirstStart shows the Welcome window when servers.json is
// still to be made, and only then; its demo button has the demo server,
// still connecting, ask in a request window.
func TestWelcomeAtFirstStart(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.eventually("the windows attached", func() bool { return h.d.taken > 0 }) // the core told them what to show
	h.ui(func() {
		if h.d.welcome != nil {
			t.Error("a start with servers.json shows the Welcome window")
		}
	})

	h = start(t, "")
	h.eventually("the Welcome window", func() bool { return h.d.welcome != nil })
	h.ui(func() {
		before := h.d.welcome.win.Canvas().Size().Height
		test.Tap(button(t, h.d.welcome.win.Content(), "Try a demo request"))
		if after := h.d.welcome.win.Canvas().Size().Height; after <= before {
			t.Errorf("the window stayed %v tall with the demo's line shown: what is below it went out of view", after)
		}
	})
	r := h.request(0)
	h.ui(func() {
		if r.Server.Name != "demo" {
			t.Errorf("the request comes from %q", r.Server.Name)
		}
		test.Tap(button(t, content(r), "Decline"))
	})
	h.eventually("the demo's outcome", func() bool {
		return strings.HasPrefix(h.d.welcome.tried.Text, "Done:")
	})
}

// TestSecondStartKeepsWelcome: a second start while the first start's
// Welcome window shows, no request waiting, brings Welcome forward rather
// than opening Servers over it; without Welcome it opens Servers.
func TestSecondStartKeepsWelcome(t *testing.T) {
	for _, tt := range []struct {
		name, config string
		servers      bool
	}{
		{"first start", "", false},
		{"servers.json made", `{"mcpServers":{}}`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t, tt.config)
			h.eventually("the windows attached", func() bool { return h.d.taken > 0 })
			h.core.Show(core.Show{Window: core.WindowFront})
			h.core.Show(core.Show{Window: core.WindowAbout}) // told after it: once About shows, the second start's pick is made
			h.eventually("the About window", func() bool { return h.d.aboutW != nil })
			h.ui(func() {
				servers := slices.ContainsFunc(h.d.fyne.Driver().AllWindows(), func(w fyne.Window) bool { return w.Title() == "Servers — Elicit Desk" })
				if servers != tt.servers || (h.d.welcome != nil) == tt.servers {
					t.Errorf("Servers opened: %v, Welcome shows: %v; want Servers %v", servers, h.d.welcome != nil, tt.servers)
				}
			})
		})
	}
}

// TestWelcomeWaitsForRequests: an app a bridge started for a request
// (Options.Background) opens the first start's Welcome window only once
// the requests are answered, so that it covers none of them.
func TestWelcomeWaitsForRequests(t *testing.T) {
	h := startWith(t, "", func(_ *Options, c *core.Options) { c.Background = true })
	h.ui(func() {
		if h.d.welcome != nil {
			t.Fatal("the Welcome window opened before the request came")
		}
	})
	h.askForm(context.Background(), "files", "Your name?")
	r := h.request(0)
	h.ui(func() {
		if h.d.welcome != nil {
			t.Fatal("the Welcome window opened while a request was open")
		}
		test.Tap(button(t, content(r), "Decline"))
	})
	h.eventually("the Welcome window, once the request is answered", func() bool { return h.d.welcome != nil })
}

// TestWelcomeOffersOneByOneWithHosts: Welcome offers to choose a host's
// servers one by one only when it found a host: without one there is
// nothing to choose.
func TestWelcomeOffersOneByOneWithHosts(t *testing.T) {
	for _, tt := range []struct {
		name  string
		hosts func(t *testing.T) []hosts.Host
		offer bool
	}{
		{"no host", func(*testing.T) []hosts.Host { return nil }, false},
		{"Cursor", func(t *testing.T) []hosts.Host { return []hosts.Host{cursorHost(t)} }, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t, `{"mcpServers":{}}`)
			found := tt.hosts(t)
			h.ui(func() {
				h.d.opts.Hosts = found
				h.d.showWelcome()
				if got := h.d.welcome.oneByOne.Visible(); got != tt.offer {
					t.Errorf("Choose servers one by one… shown %v, want %v", got, tt.offer)
				}
			})
		})
	}
}

// TestWelcomeButtonsGiveTheKeys: a window that Welcome's buttons make has
// the app's keys, as every other window: F1 in the Servers window that
// "Add a server…" made opens Help.
func TestWelcomeButtonsGiveTheKeys(t *testing.T) {
	h := start(t, "")
	h.eventually("the Welcome window", func() bool { return h.d.welcome != nil })
	h.ui(func() {
		test.Tap(button(t, h.d.welcome.win.Content(), "Add a server…"))
		c := h.d.serversWin.Window().Canvas()
		c.Unfocus()
		c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyF1})
		if h.d.helpW == nil {
			t.Error("F1 in the Servers window that Add a server… made did not open Help")
		}
	})
}
