package app

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/cmdtext"
	"github.com/elicitdesk/elicitdesk/app/historyview"
	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/app/modal"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/desktop/xwin"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// settingsForm is the Settings window's content: every option, and the
// buttons that keep or drop the changes. Nothing changes until Save.
type settingsForm struct {
	windows *spin
	login   *keys.Check
	look    *keys.Select // look.Choices' labels
	notify  *keys.Check
	days    *spin
	size    *keys.Select      // history.SizeChoices' texts
	capture *keys.Check       // every server's messages
	of      []*keys.Check     // or those of the servers ticked (a check group would keep Escape and F1)
	named   map[string]string // of's texts: the names they show
	redact  *keys.Entry       // the patterns, a line each
	tabs    *container.AppTabs
	problem *widget.Label
	save    *look.Button
	cancel  *look.Button
	object  fyne.CanvasObject
	cur     Settings
}

// newSettingsForm shows cur and whether the app starts at login; tray
// says whether requests past the limit wait in a tray menu, noNotices why
// no notification can show ("" when they can), capturePath where captured
// messages are kept, and servers the names of the servers whose messages
// may be kept.
func newSettingsForm(cur Settings, login, tray bool, noNotices, capturePath string, servers []string, k *keys.Keys) *settingsForm {
	f := &settingsForm{cur: cur}
	f.windows = newSpin(cur.MaxWindows, core.MinWindows, core.MaxWindows, k)
	f.login = k.NewCheck("Start Elicit Desk when I log in", nil)
	f.login.Checked = login
	var looks []string
	for _, c := range look.Choices() {
		looks = append(looks, c.Label())
	}
	f.look = k.NewSelect(looks, nil)
	f.look.Selected = cur.Theme.Label()
	f.notify = k.NewCheck("Notify me when a request arrives while I work elsewhere", nil)
	f.notify.Checked = cur.Notify
	f.days = newSpin(int(cur.Retention/day), history.MinRetentionDays, history.MaxRetentionDays, k)
	f.days.unit, f.days.title = "days", "Keep requests for (days)" // a label beside it says so on screen
	var sizes []string
	for _, n := range history.SizeChoices() {
		sizes = append(sizes, historyview.SizeText(n))
	}
	f.size = k.NewSelect(sizes, nil)
	f.size.Selected = historyview.SizeText(cur.HistoryMaxBytes)
	f.named = map[string]string{}
	ofBox := container.NewVBox()
	for _, name := range slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(servers), cur.Capture.Servers...)))) {
		shown := untrusted.Text(name).Headline(60) // a bridged server's name is its host's
		if _, ok := f.named[shown]; ok {
			continue
		}
		f.named[shown] = name
		c := k.NewCheck(shown, nil)
		c.Checked = slices.Contains(cur.Capture.Servers, name)
		f.of = append(f.of, c)
		ofBox.Add(c)
	}
	f.capture = k.NewCheck("Of every server and bridged host", func(all bool) {
		for _, c := range f.of {
			if all {
				c.Disable()
			} else {
				c.Enable()
			}
		}
	})
	f.capture.SetChecked(cur.Capture.All)
	f.redact = k.NewMultiLineEntry()
	f.redact.SetMinRowsVisible(2)
	f.redact.SetPlaceHolder("A regular expression a line, such as ACME-[0-9]+")
	f.redact.SetText(strings.Join(cur.Redact, "\n"))
	f.problem = widget.NewLabel("")
	f.problem.Importance = widget.DangerImportance
	f.problem.Wrapping = fyne.TextWrapWord
	f.problem.Hide()
	f.save = look.NewButton("Save", nil, nil)
	f.save.Importance = widget.HighImportance
	f.cancel = look.NewButton("Cancel", nil, nil)

	general := widget.NewForm(
		widget.NewFormItem("Request windows at once", f.windows.object),
		widget.NewFormItem("Launch at login", f.login),
		widget.NewFormItem("Look", choice(f.look)),
		widget.NewFormItem("Notifications", f.notify),
	)
	general.Items[0].HintText = waitingHint(tray)
	general.Items[3].HintText = noNotices
	kept := widget.NewForm(
		widget.NewFormItem("Keep requests for", container.NewHBox(f.days.object, widget.NewLabel("days"))),
		widget.NewFormItem("History size at most", choice(f.size)),
	)
	kept.Items[0].HintText = "The History window lists what was asked and answered."
	kept.Items[1].HintText = "Past it, the oldest requests are deleted first."
	limits := traffic.DefaultCaptureLimits
	ofScroll := container.NewVScroll(ofBox)
	ofScroll.SetMinSize(fyne.NewSize(0, min(ofBox.MinSize().Height, 120))) // a few at a time
	// The file's path, which may be long, wraps under the switches, at
	// its separators: a form's hint is one line, cut at the window's edge.
	file := cmdtext.New(capturePath)
	file.SizeName = theme.SizeNameCaptionText
	file.Importance = widget.LowImportance // as the hints read
	messages := widget.NewForm(
		widget.NewFormItem("Keep messages", container.NewVBox(f.capture, ofScroll, file)),
		widget.NewFormItem("Also redact", f.redact),
	)
	messages.Items[0].HintText = fmt.Sprintf("The messages themselves, redacted, in that file, which only you can read: %s at most, for %d days.",
		historyview.SizeText(limits.MaxBytes), int(limits.Retention/day))
	messages.Items[1].HintText = "Passwords, tokens, keys and cookies are always redacted."
	tab := func(name string, form *widget.Form) *container.TabItem {
		return container.NewTabItem(name, container.NewVBox(form, layout.NewSpacer()))
	}
	f.tabs = container.NewAppTabs(tab("General", general), tab("History", kept), tab("Traffic", messages))
	buttons := container.NewBorder(nil, nil, nil, container.NewHBox(f.cancel, f.save), f.problem)
	f.object = container.NewPadded(container.NewBorder(nil, buttons, nil, nil, f.tabs))
	return f
}

// choice gives the drop-downs of Settings one width, that of its longest
// choice: a Select is only as wide as its shortest.
func choice(s *keys.Select) fyne.CanvasObject {
	width := widget.NewLabel(look.FollowDesktop.Label()).MinSize().Width + theme.IconInlineSize() + 2*theme.InnerPadding()
	return container.NewHBox(container.NewGridWrap(fyne.NewSize(width, s.MinSize().Height), s))
}

// read is the settings the form shows and whether to start at login, or
// what is wrong with them.
func (f *settingsForm) read() (s Settings, login bool, problem string) {
	s = f.cur
	var err error
	if s.MaxWindows, err = f.windows.Value(); err != nil {
		return f.cur, false, "Open " + err.Error() + " request windows at once."
	}
	days, err := f.days.Value()
	if err != nil {
		return f.cur, false, "Keep requests for " + err.Error() + " days."
	}
	s.Retention = day * time.Duration(days)
	if i := f.size.SelectedIndex(); i >= 0 {
		s.HistoryMaxBytes = history.SizeChoices()[i]
	}
	if i := f.look.SelectedIndex(); i >= 0 {
		s.Theme = look.Choices()[i]
	}
	s.Notify = f.notify.Checked
	s.Capture.All = f.capture.Checked
	s.Capture.Servers = nil
	for _, c := range f.of {
		if c.Checked {
			s.Capture.Servers = append(s.Capture.Servers, f.named[c.Text])
		}
	}
	s.Redact = core.PatternLines(f.redact.Text)
	return s, f.login.Checked, s.check()
}

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
	var leave func()
	k := keys.Close(w, func() { leave() })
	var servers []string
	for _, s := range d.core.Statuses() {
		servers = append(servers, s.Name)
	}
	for _, b := range d.core.Bridged() {
		servers = append(servers, b.Server.Name)
	}
	f := newSettingsForm(d.settings, d.autostartEnabled(), d.opts.TrayShown, d.core.NotificationsProblem(), d.opts.CapturePath, servers, k)
	k.Tabs(f.tabs)
	keep := func(s Settings, login bool) {
		d.applySettings(s)
		if login != d.autostartEnabled() {
			d.setAutostart(login)
		}
		w.Close()
	}
	f.save.OnTapped = func() {
		s, login, msg := f.read()
		if msg != "" {
			f.problem.SetText(msg)
			f.problem.Show()
			return
		}
		if losses := d.settings.losses(s); len(losses) > 0 {
			modal.Confirm(w.Canvas(), "Delete from the history?", strings.Join(losses, " "), "Cancel", "Delete", func() { keep(s, login) })
			return
		}
		keep(s, login)
	}
	// Leaving with changes unsaved asks first, as the Add server dialog
	// does: Escape is a key that is easily pressed.
	opened, openedLogin, _ := f.read() // as the form reads them, not as they were kept: the same order, nil for none
	leave = func() {
		s, login, msg := f.read()
		if msg == "" && reflect.DeepEqual(s, opened) && login == openedLogin {
			w.Close()
			return
		}
		modal.Confirm(w.Canvas(), "Discard your changes?", "What you changed in Settings has not been saved.", "Keep editing", "Discard", w.Close)
	}
	f.cancel.OnTapped = leave
	w.SetCloseIntercept(leave)
	f.windows.OnSubmitted = func(string) { f.save.OnTapped() }
	f.days.OnSubmitted = f.windows.OnSubmitted
	w.SetContent(f.object)
	xwin.Dialog(w)                           // floated at its size by a tiling window manager: tiled narrow, it was cut off
	d.screen().Show(w, fyne.NewSize(620, 0)) // as tall as its content
}

// waitingHint says where the requests past the limit wait: the tray menu
// lists them only where there is a tray.
func waitingHint(tray bool) string {
	if tray {
		return "More requests wait in the tray menu, oldest first."
	}
	return "More requests wait their turn, oldest first: each gets a window when one closes."
}

// applySettings keeps s and acts on it now: waiting requests get the
// windows a higher limit allows, the look changes, and the history drops
// what it no longer keeps.
func (d *Desk) applySettings(s Settings) {
	was := d.settings
	d.settings = s
	s.save(d.fyne.Preferences())
	if s.MaxWindows != was.MaxWindows || s.Notify != was.Notify {
		d.prefs.set(s.WindowPrefs()) // the core answers over the connection: not on the UI goroutine
	}
	if !reflect.DeepEqual(s.TrafficPrefs(), was.TrafficPrefs()) {
		d.traffic.set(s.TrafficPrefs())
	}
	if s.Theme != was.Theme {
		d.applyTheme()
	}
	d.shrinkHistory(was, s)
}

// shrinkHistory has the core apply a new retention and size cap to the
// history now, not at its next daily prune. The core checks them against
// the bounds the form did; a refusal or a lost core is said.
func (d *Desk) shrinkHistory(was, s Settings) {
	if s.Retention == was.Retention && s.HistoryMaxBytes == was.HistoryMaxBytes {
		return
	}
	d.limits.set(s.HistoryLimits())
}

// sendWindowPrefs and sendHistoryLimits tell the core the settings saved,
// one save at a time and in order (the latest wins), or say why not.
func (d *Desk) sendWindowPrefs(p core.WindowPrefs) {
	if err := d.core.SetWindowPrefs(p); err != nil {
		d.log.Error("window settings not applied", "err", err)
		d.do(func() { d.showError("The window settings were not changed", err.Error()) })
	}
}

func (d *Desk) sendTrafficPrefs(p core.TrafficPrefs) {
	if err := d.core.SetTrafficPrefs(p); err != nil {
		d.log.Error("traffic settings not applied", "err", err)
		d.do(func() { d.showError("The traffic settings were not changed", err.Error()) })
	}
}

func (d *Desk) sendHistoryLimits(l core.HistoryLimits) {
	if err := d.core.SetHistoryLimits(d.ctx, l); err != nil {
		d.log.Error("history limits not applied", "err", err)
		d.do(func() { d.showError("The history's limits were not changed", err.Error()) })
	}
}

// applyTheme draws the app in the look the person chose, or the desktop's.
func (d *Desk) applyTheme() {
	d.fyne.Settings().SetTheme(look.For(d.settings.Theme, d.desktop))
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
}
