package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/elicitdesk/elicitdesk/internal/core"
)

// appMenu is the app's own menu in the Servers window, where no tray host
// shows the core's icon and the window stands in for it.
func (d *Desk) appMenu() *fyne.Menu {
	m := fyne.NewMenu("Elicit Desk")
	var items []*fyne.MenuItem
	for _, e := range core.Menu {
		switch {
		case e.Login:
			login := fyne.NewMenuItem(e.Label, nil)
			showLogin(login, d.autostartEnabled())
			login.Action = func() {
				d.setAutostart(!d.autostartEnabled())
				showLogin(login, d.autostartEnabled())
				m.Refresh() // a shown menu keeps its look until refreshed
			}
			items = append(items, login)
		case e.Window == core.WindowQuit:
			items = append(items, &fyne.MenuItem{Label: e.Label, IsQuit: true, Action: d.askQuit, Shortcut: quitShortcut})
		case e.Window != "":
			item := fyne.NewMenuItem(e.Label, func() { d.show(core.Show{Window: e.Window}) })
			if e.Window == core.WindowHelp {
				item.Shortcut = helpShortcut
			}
			items = append(items, item)
		default:
			items = append(items, fyne.NewMenuItemSeparator())
		}
	}
	m.Items = items
	return m
}

// showLogin draws "Launch at login" as a check box, ticked when on. Fyne's
// menus mark only a Checked item and leave an unchecked one looking like a
// command, so the box is the item's icon in both states.
func showLogin(item *fyne.MenuItem, on bool) {
	item.Icon = theme.CheckButtonIcon()
	if on {
		item.Icon = theme.CheckButtonCheckedIcon()
	}
}
