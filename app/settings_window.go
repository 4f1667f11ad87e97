package app

import (
	"strconv"
	"strings"
	"time"

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
	days := widget.NewEntry()
	days.SetText(strconv.Itoa(int(d.settings.Retention / day)))
	login := widget.NewCheck("Start Elicit Desk when I log in", nil)
	login.Checked = d.autostartEnabled()
	problem := widget.NewLabel("")
	problem.Importance = widget.DangerImportance
	problem.Hide()

	save := widget.NewButton("Save", func() {
		s, msg := parseSettings(windows.Text, days.Text)
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
		widget.NewFormItem("Keep history for (days)", days),
		widget.NewFormItem("Launch at login", login),
	)
	form.Items[0].HintText = "More requests wait in the tray menu, oldest first."
	form.Items[1].HintText = "Older requests are deleted from the history."
	w.SetContent(container.NewPadded(container.NewVBox(form, problem,
		container.NewHBox(widget.NewButton("Cancel", w.Close), save))))
	w.Resize(fyne.NewSize(480, 0))
	w.Show()
}

// parseSettings reads the Settings window's fields.
func parseSettings(windows, days string) (Settings, string) {
	n, err1 := strconv.Atoi(strings.TrimSpace(windows))
	dd, err2 := strconv.Atoi(strings.TrimSpace(days))
	if err1 != nil || err2 != nil {
		return Settings{}, "Type whole numbers."
	}
	s := Settings{MaxWindows: n, Retention: time.Duration(dd) * day}
	return s, s.check()
}

// applySettings keeps s and acts on it now: waiting requests get the
// windows a higher limit allows; the history forgets what is too old.
func (d *Desk) applySettings(s Settings) {
	d.settings = s
	s.save(d.fyne.Preferences())
	for _, r := range d.queue.setMax(s.MaxWindows) {
		d.open(r)
	}
	d.prune()
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
