package app

import (
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// showSettings opens the Settings window, or brings it forward.
func (d *Desk) showSettings() {
	if d.settingsW != nil {
		d.settingsW.Show()
		d.settingsW.RequestFocus()
		return
	}
	w := d.fyne.NewWindow("Settings — Elicit Desk")
	d.settingsW = w
	w.SetOnClosed(func() { d.settingsW = nil })

	windows := widget.NewEntry()
	windows.SetText(strconv.Itoa(d.settings.MaxWindows))
	login := widget.NewCheck("Start Elicit Desk when I log in", nil)
	login.Checked = d.autostartEnabled()
	problem := widget.NewLabel("")
	problem.Importance = widget.DangerImportance
	problem.Hide()

	save := widget.NewButton("Save", func() {
		s, msg := parseSettings(windows.Text, d.settings)
		if msg != "" {
			problem.SetText(msg)
			problem.Show()
			return
		}
		d.applySettings(s)
		if login.Checked != d.autostartEnabled() {
			d.setAutostart(login.Checked)
		}
		w.Close()
	})
	save.Importance = widget.HighImportance
	form := widget.NewForm(
		widget.NewFormItem("Request windows at once", windows),
		widget.NewFormItem("Launch at login", login),
	)
	form.Items[0].HintText = waitingHint(d.tray != nil)
	w.SetContent(container.NewPadded(container.NewVBox(form, problem,
		container.NewHBox(widget.NewButton("Cancel", w.Close), save))))
	d.screen().Show(w, fyne.NewSize(480, 0)) // as tall as its content
}

// waitingHint says where the requests past the limit wait: the tray menu
// lists them only where there is a tray.
func waitingHint(tray bool) string {
	if tray {
		return "More requests wait in the tray menu, oldest first."
	}
	return "More requests wait their turn, oldest first: each gets a window when one closes."
}

// parseSettings reads the Settings window's field over cur. Retention is
// set in the History window, which asks before it deletes anything.
func parseSettings(windows string, cur Settings) (Settings, string) {
	n, err := strconv.Atoi(strings.TrimSpace(windows))
	if err != nil {
		return cur, "Type a whole number."
	}
	cur.MaxWindows = n
	return cur, cur.check()
}

// applySettings keeps s and acts on it now: waiting requests get the
// windows a higher limit allows.
func (d *Desk) applySettings(s Settings) {
	d.settings = s
	s.save(d.fyne.Preferences())
	for _, r := range d.queue.setMax(s.MaxWindows) {
		d.openBy(r, byApp)
	}
	d.refreshTray()
}

func (d *Desk) autostartEnabled() bool {
	on, err := d.opts.Autostart.Enabled()
	return err == nil && on
}

// setAutostart turns launch at login on or off, and says so when the
// system refuses.
func (d *Desk) setAutostart(on bool) {
	var err error
	if on {
		err = d.opts.Autostart.Enable()
	} else {
		err = d.opts.Autostart.Disable()
	}
	if err != nil {
		d.log.Error("launch at login not changed", "err", err)
		d.showError("Launch at login was not changed", err.Error())
	}
	d.refreshTray()
}
