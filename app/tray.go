package app

import (
	"fyne.io/fyne/v2"

	"github.com/elicitdesk/elicitdesk/internal/core"
)

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

// menuItems are the app's own entries in the Servers window's menu, where
// no tray host shows the core's icon and the window stands in for it.
func (d *Desk) menuItems() []*fyne.MenuItem {
	var items []*fyne.MenuItem
	for _, e := range core.Menu {
		if e.Window == "" {
			items = append(items, fyne.NewMenuItemSeparator())
			continue
		}
		items = append(items, fyne.NewMenuItem(e.Label, func() { d.show(core.Show{Window: e.Window}) }))
	}
	login := fyne.NewMenuItem("Launch at login", nil)
	login.Checked = d.autostartEnabled()
	login.Action = func() {
		d.setAutostart(!d.autostartEnabled())
		login.Checked = d.autostartEnabled()
	}
	return append(items,
		login,
		fyne.NewMenuItemSeparator(),
		&fyne.MenuItem{Label: "Quit", IsQuit: true, Action: d.askQuit, Shortcut: quitShortcut},
	)
}
