package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/elicitdesk/elicitdesk/internal/core"
)

// trayChanged: the core says a tray host shows its icon again (shown), or
// that none does any more, the panel gone. Without one the Servers window
// stands in for the tray (the core then asks for it to show); with one,
// what shows next goes back to the tray's ways: Settings and Welcome read
// Options.TrayShown as they open.
func (d *Desk) trayChanged(shown bool) {
	if d.opts.TrayShown == shown {
		return
	}
	d.opts.TrayShown = shown
	if !shown {
		d.standIn()
		return
	}
	// Closing the window only hides it now, as the tray's icon stays. Its
	// menu goes once it is hidden, not under the person's pointer.
	withoutMenu := func() {
		d.serversWin.SetMenu(nil)
		d.serversWin.SetOnClose(nil)
	}
	if !d.serversWin.Visible() {
		withoutMenu()
		return
	}
	d.serversWin.SetOnClose(func() {
		d.serversWin.Hide()
		if d.opts.TrayShown {
			withoutMenu()
		}
	})
}

// standIn makes the Servers window stand in for the tray, where no tray
// host shows the core's icon: the app's menu in its menu bar, and closing
// it asks, the first time, whether to keep running.
func (d *Desk) standIn() {
	d.menuOnServers()
	d.serversWin.SetOnClose(d.closeWithoutTray)
}

// menuOnServers puts the app's menu, the tray's entries, in the Servers
// window's menu bar.
func (d *Desk) menuOnServers() { d.serversWin.SetMenu(fyne.NewMainMenu(d.appMenu())) }

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
