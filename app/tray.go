package app

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/elicitdesk/elicitdesk/assets"
	systemtray "github.com/elicitdesk/elicitdesk/internal/tray" // "tray" is this package's type
	"github.com/elicitdesk/elicitdesk/internal/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

// tray is the icon and menu in the system tray.
type tray struct {
	app  desktop.App
	menu *fyne.Menu
}

// newTray sets up the tray when a session bus answers (nil otherwise) and
// says whether a tray host shows it; where none does, the app shows its
// Servers window instead.
func newTray(d *Desk) (t *tray, shown bool) {
	da, ok := d.fyne.(desktop.App)
	if !ok {
		return nil, false
	}
	bus, host := systemtray.Host(d.ctx)
	if !bus {
		d.log.Info("no DBus session bus: running without a tray icon")
		return nil, false
	}
	t = &tray{app: da, menu: fyne.NewMenu("Elicit Desk")}
	st := d.trayState()
	t.menu.Items = d.trayItems(st)
	da.SetSystemTrayMenu(t.menu)
	da.SetSystemTrayIcon(st.icon())
	if !host {
		d.log.Info("no tray host on the session bus: showing the Servers window")
	}
	return t, host
}

// trayState is what the tray shows: the requests that wait, those with a
// window first, and the enabled servers that cannot connect.
type trayState struct {
	open, queued []*request // not ended; open have a window, queued wait for one
	down         []string   // servers that cannot connect, in name order
}

// trayStateOf is the tray's state for the queue's requests and the
// servers' statuses.
func trayStateOf(open, queued []*request, statuses []servers.Status) trayState {
	var st trayState
	for _, r := range open {
		if !r.ended {
			st.open = append(st.open, r)
		}
	}
	for _, r := range queued {
		if !r.ended {
			st.queued = append(st.queued, r)
		}
	}
	for _, s := range statuses {
		if cannotConnect(s) {
			st.down = append(st.down, s.Name)
		}
	}
	return st
}

// cannotConnect reports whether an enabled server is down: failed, trying
// again after a failure, or waiting for the person to sign in. A disabled
// or stopped server is not a problem, and one connecting for the first
// time not yet.
func cannotConnect(s servers.Status) bool {
	switch s.State {
	case servers.StateFailed, servers.StateNeedsSignIn:
		return true
	case servers.StateConnecting:
		return !s.FailedSince.IsZero()
	}
	return false
}

func (st trayState) waiting() int { return len(st.open) + len(st.queued) }

// icon is the tray icon: a dot while requests wait, a warning mark while a
// server cannot connect.
func (st trayState) icon() fyne.Resource {
	return assets.TrayIcon(st.waiting() > 0, len(st.down) > 0)
}

// summary is the menu's first line: how many requests wait.
func (st trayState) summary() string {
	switch n := st.waiting(); n {
	case 0:
		return "No requests waiting"
	case 1:
		return "1 request waiting"
	default:
		return fmt.Sprintf("%d requests waiting", n)
	}
}

// downLine is the menu's line about the servers that cannot connect; ""
// when all can.
func (st trayState) downLine() string {
	switch len(st.down) {
	case 0:
		return ""
	case 1:
		return untrusted.Text(st.down[0]).Line() + " can't connect…"
	default:
		return fmt.Sprintf("%d servers can't connect…", len(st.down))
	}
}

// trayState is the tray's state now.
func (d *Desk) trayState() trayState {
	return trayStateOf(d.queue.open, d.queue.waiting, d.manager.Statuses())
}

// refreshTray shows the current requests and servers in the tray menu and
// icon, and the quit question's count, which follows the requests.
func (d *Desk) refreshTray() {
	if d.ctx.Err() != nil {
		return // the app is quitting and the tray is gone
	}
	st := d.trayState()
	d.asking.update(st.waiting())
	if d.tray == nil {
		return
	}
	d.tray.menu.Items = d.trayItems(st)
	d.tray.menu.Refresh()
	d.tray.app.SetSystemTrayIcon(st.icon())
}

// pending counts the requests still waiting for an answer.
func (d *Desk) pending() int {
	n := 0
	for _, r := range d.queue.all() {
		if !r.ended {
			n++
		}
	}
	return n
}

// trayItems is the tray menu: the servers that cannot connect, how many
// requests wait, those with a window and those still waiting for one,
// each group in arrival order, then the app's own entries.
func (d *Desk) trayItems(st trayState) []*fyne.MenuItem {
	var items []*fyne.MenuItem
	if line := st.downLine(); line != "" {
		first := st.down[0]
		items = append(items, fyne.NewMenuItem(line, func() { d.serversWin.ShowServer(first) }))
	}
	items = append(items, &fyne.MenuItem{Label: st.summary(), Disabled: true})
	group := func(heading string, rs []*request) {
		if len(rs) == 0 {
			return
		}
		items = append(items, fyne.NewMenuItemSeparator(), &fyne.MenuItem{Label: heading, Disabled: true})
		for _, r := range rs {
			items = append(items, fyne.NewMenuItem(menuLabel(r), func() {
				d.queue.promote(r)
				d.open(r)
				d.refreshTray() // it moves to the open ones
			}))
		}
	}
	group("In a window", st.open)
	group("Waiting for a window", st.queued)
	return append(append(items, fyne.NewMenuItemSeparator()), d.menuItems()...)
}

// menuItems are the app's own entries, in the tray menu or, without a
// tray, in the Servers window's menu.
func (d *Desk) menuItems() []*fyne.MenuItem {
	login := fyne.NewMenuItem("Launch at login", nil)
	login.Checked = d.autostartEnabled()
	login.Action = func() {
		d.setAutostart(!d.autostartEnabled())
		login.Checked = d.autostartEnabled()
	}
	shown := func(show func()) func() {
		return func() {
			show()
			d.addQuitKeys()
		}
	}
	return []*fyne.MenuItem{
		fyne.NewMenuItem("Servers…", shown(d.serversWin.Show)),
		fyne.NewMenuItem("Hosts…", shown(d.hostsWin.Show)),
		fyne.NewMenuItem("History…", shown(d.showHistory)),
		fyne.NewMenuItem("Settings…", shown(d.showSettings)),
		fyne.NewMenuItem("Welcome…", shown(d.showWelcome)),
		login,
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Help", d.showHelp),
		fyne.NewMenuItem("About Elicit Desk…", shown(d.showAbout)),
		fyne.NewMenuItemSeparator(),
		{Label: "Quit", IsQuit: true, Action: d.askQuit, Shortcut: quitShortcut},
	}
}

// menuLabel is a request in the tray menu: the server and the first words
// of its message.
func menuLabel(r *request) string {
	first := r.Message.Headline(48)
	return untrusted.Text(r.Server.Name).Line() + ": " + first + r.Received.Local().Format(" (15:04:05)")
}
