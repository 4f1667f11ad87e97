package app

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/elicitdesk/elicitdesk/assets"
	"github.com/elicitdesk/elicitdesk/internal/untrusted"
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
	bus, host := trayHost(d.ctx)
	if !bus {
		d.log.Info("no DBus session bus: running without a tray icon")
		return nil, false
	}
	t = &tray{app: da, menu: fyne.NewMenu("Elicit Desk")}
	t.menu.Items = d.trayItems()
	da.SetSystemTrayMenu(t.menu)
	da.SetSystemTrayIcon(assets.TrayIcon(false))
	if !host {
		d.log.Info("no tray host on the session bus: showing the Servers window")
	}
	return t, host
}

// refreshTray shows the current requests in the tray menu and icon.
func (d *Desk) refreshTray() {
	if d.tray == nil || d.ctx.Err() != nil {
		return // no tray, or the app is quitting and the tray is gone
	}
	d.tray.menu.Items = d.trayItems()
	d.tray.menu.Refresh()
	d.tray.app.SetSystemTrayIcon(assets.TrayIcon(d.pending() > 0))
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

// trayItems is the tray menu: how many requests wait, each of them in
// arrival order, then the windows, the login toggle and Quit.
func (d *Desk) trayItems() []*fyne.MenuItem {
	n := d.pending()
	summary := "No requests waiting"
	switch {
	case n == 1:
		summary = "1 request waiting"
	case n > 1:
		summary = fmt.Sprintf("%d requests waiting", n)
	}
	items := []*fyne.MenuItem{{Label: summary, Disabled: true}}
	for _, r := range d.queue.all() {
		if r.ended {
			continue
		}
		items = append(items, fyne.NewMenuItem(menuLabel(r), func() {
			d.queue.promote(r)
			d.open(r)
		}))
	}
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
	return []*fyne.MenuItem{
		fyne.NewMenuItem("Servers…", d.serversWin.Show),
		fyne.NewMenuItem("Hosts…", d.hostsWin.Show),
		fyne.NewMenuItem("History…", d.showHistory),
		fyne.NewMenuItem("Settings…", d.showSettings),
		fyne.NewMenuItem("Welcome…", d.showWelcome),
		login,
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Help", d.showHelp),
		fyne.NewMenuItem("About Elicit Desk…", d.showAbout),
		fyne.NewMenuItemSeparator(),
		{Label: "Quit", IsQuit: true, Action: d.quit},
	}
}

// menuLabel is a request in the tray menu: the server and the first words
// of its message.
func menuLabel(r *request) string {
	first := r.Message.Headline(48)
	return untrusted.Text(r.Server.Name).Line() + ": " + first + r.Received.Local().Format(" (15:04:05)")
}
