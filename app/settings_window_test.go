package app

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

func TestWaitingHintPromisesNoMissingTray(t *testing.T) {
	if !strings.Contains(waitingHint(true), "tray") || strings.Contains(waitingHint(false), "tray") {
		t.Errorf("hints: %q, %q", waitingHint(true), waitingHint(false))
	}
}

// TestSettingsFormReads sets every option in the window and reads them
// back, or says what is wrong.
func TestSettingsFormReads(t *testing.T) {
	test.NewTempApp(t)
	tests := []struct {
		name    string
		set     func(f *settingsForm)
		want    func(s *Settings)
		login   bool
		problem string
	}{
		{"unchanged", func(*settingsForm) {}, func(*Settings) {}, false, ""},
		{"every option", func(f *settingsForm) {
			f.windows.SetText("7")
			f.login.SetChecked(true)
			f.look.SetSelected("Dark")
			f.notify.SetChecked(false)
			f.days.SetText("30")
			f.size.SetSelected("1 GB")
			f.capture.SetChecked(true)
			f.redact.SetText("ACME-[0-9]+\n\n  \ncust-[a-z]+\n")
		}, func(s *Settings) {
			s.MaxWindows, s.Theme, s.Notify, s.Retention, s.HistoryMaxBytes = 7, look.Dark, false, 30*day, 1<<30
			s.Capture, s.Redact = traffic.Scope{All: true}, []string{"ACME-[0-9]+", "cust-[a-z]+"}
		}, true, ""},
		{"some servers' messages", func(f *settingsForm) {
			for _, c := range f.of {
				if c.Disabled() {
					t.Errorf("%s, a server to keep the messages of, is disabled while every server's are not kept", c.Text)
				}
				c.SetChecked(c.Text == "notes")
			}
		}, func(s *Settings) { s.Capture.Servers = []string{"notes"} }, false, ""},
		{"a pattern that does not compile", func(f *settingsForm) { f.redact.SetText("ok\n(") }, nil, false, `The redaction pattern "("`},
		{"too many windows", func(f *settingsForm) { f.windows.SetText("21") }, nil, false, "from 1 to 20"},
		{"no windows", func(f *settingsForm) { f.windows.SetText("0") }, nil, false, "from 1 to 20"},
		{"no days", func(f *settingsForm) { f.days.SetText("") }, nil, false, "from 1 to 3650"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newSettingsForm(DefaultSettings, false, true, "", "/state/traffic.jsonl", []string{"demo", "notes"}, keys.Close(test.NewTempWindow(t, nil), nil))
			tt.set(f)
			s, login, problem := f.read()
			if tt.problem != "" {
				if !strings.Contains(problem, tt.problem) {
					t.Errorf("problem %q, want one saying %q", problem, tt.problem)
				}
				return
			}
			want := DefaultSettings
			tt.want(&want)
			if !reflect.DeepEqual(s, want) || login != tt.login || problem != "" {
				t.Errorf("read %+v, login %v, %q; want %+v, %v", s, login, problem, want, tt.login)
			}
		})
	}
}

// TestSpinKeepsBounds steps and types past the bounds.
func TestSpinKeepsBounds(t *testing.T) {
	test.NewTempApp(t)
	s := newSpin(19, 1, 20, nil)
	w := test.NewWindow(s.object)
	defer w.Close()
	test.Tap(s.up)
	test.Tap(s.up)
	if n, err := s.Value(); n != 20 || err != nil || !s.up.Disabled() {
		t.Errorf("stepped up to %d, %v; + disabled %v", n, err, s.up.Disabled())
	}
	s.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if n, _ := s.Value(); n != 19 || s.up.Disabled() {
		t.Errorf("Down gave %d", n)
	}
	s.SetText("")
	test.Type(s, "4x2")
	if s.Text != "42" {
		t.Errorf("typed %q: only digits are taken", s.Text)
	}
	if _, err := s.Value(); err == nil {
		t.Error("42 is past 20 and valid")
	}
	test.Tap(s.down) // from an invalid value: the nearest bound
	if n, _ := s.Value(); n != 20 {
		t.Errorf("stepped down from 42 to %d", n)
	}
	s.SetText("1")
	if !s.down.Disabled() {
		t.Error("− steps below 1")
	}
}

// TestSpinKeepsTheKeyboard steps down to the bound from the keyboard: the
// − button, disabled there, hands the keyboard to the number rather than
// drop it, and each press's number is the buttons' description, which a
// screen reader says as it changes.
func TestSpinKeepsTheKeyboard(t *testing.T) {
	test.NewTempApp(t)
	s := newSpin(3, 1, 20, nil)
	w := test.NewWindow(s.object)
	defer w.Close()
	w.Canvas().Focus(s.down)
	for _, want := range []string{"2", "1"} {
		s.down.Press()
		if s.down.AccessibleDescription() != want || s.up.AccessibleDescription() != want {
			t.Errorf("the buttons say %q and %q, want %q", s.down.AccessibleDescription(), s.up.AccessibleDescription(), want)
		}
	}
	if !s.down.Disabled() || w.Canvas().Focused() != fyne.Focusable(s) {
		t.Errorf("at the bound: − disabled %v, the keyboard on %T, want the number", s.down.Disabled(), w.Canvas().Focused())
	}
}

func TestSettingsLosses(t *testing.T) {
	d := DefaultSettings
	tests := []struct {
		name string
		next func(s *Settings)
		want []string
	}{
		{"nothing", func(*Settings) {}, nil},
		{"longer, larger", func(s *Settings) { s.Retention, s.HistoryMaxBytes = 365*day, 1<<30 }, nil},
		{"shorter", func(s *Settings) { s.Retention = day }, []string{"older than 1 day"}},
		{"smaller", func(s *Settings) { s.HistoryMaxBytes = 64 << 20 }, []string{"more than 64 MB"}},
		{"both", func(s *Settings) { s.Retention, s.HistoryMaxBytes = 30*day, 64<<20 }, []string{"older than 30 days", "64 MB"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next := d
			tt.next(&next)
			got := d.losses(next)
			if len(got) != len(tt.want) {
				t.Fatalf("losses %q, want %d", got, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("loss %q does not say %q", got[i], w)
				}
			}
		})
	}
}

// TestSettingsWindow opens Settings from the Desk: every option shows,
// the buttons sit bottom right with Save last, and Save keeps the choice.
func TestSettingsWindow(t *testing.T) {
	h := start(t, `{"mcpServers":{"bank":{"command":"bank-mcp","disabled":true}}}`)
	h.ui(func() {
		h.d.showSettings()
		w := h.d.settingsW
		if w.Title() != "Settings — Elicit Desk" {
			t.Errorf("title %q", w.Title())
		}
		tabs := map[string][]string{
			"General": {"Request windows at once", "Launch at login", "Follow the desktop", "Notifications"},
			"History": {"Keep requests for", "History size at most"},
			"Traffic": {"Keep messages", "Of every server and bridged host", "bank", "Also redact", "only you can read"},
		}
		var settingsTabs *container.AppTabs
		for _, x := range test.LaidOutObjects(w.Content()) {
			if tabs, ok := x.(*container.AppTabs); ok {
				settingsTabs = tabs
			}
		}
		if settingsTabs == nil {
			t.Error("no tabs") // not Fatal: this is the UI goroutine
			return
		}
		for i, item := range settingsTabs.Items {
			settingsTabs.SelectIndex(i)
			var texts []string
			for _, s := range uitest.WindowTexts(w) {
				texts = append(texts, s.Text)
			}
			all := strings.Join(texts, "\n")
			for _, want := range tabs[item.Text] {
				if !strings.Contains(all, want) {
					t.Errorf("Settings' %s tab lacks %q", item.Text, want)
				}
			}
			delete(tabs, item.Text)
		}
		if len(tabs) > 0 {
			t.Errorf("no tab %v", tabs)
		}
		cancel, save := placedButton(t, w.Content(), "Cancel"), placedButton(t, w.Content(), "Save")
		d := fyne.CurrentApp().Driver()
		c, s := d.AbsolutePositionForObject(cancel), d.AbsolutePositionForObject(save)
		if c.X >= s.X || s.X+save.Size().Width < w.Canvas().Size().Width-3*theme.Padding() {
			t.Errorf("Cancel at %v, Save at %v in a window %v wide: not bottom right, Save last", c, s, w.Canvas().Size().Width)
		}
	})
}

// TestSettingsRaiseTheWindowLimit: a higher limit saved in Settings gives
// the request waiting past the old one its window at once.
func TestSettingsRaiseTheWindowLimit(t *testing.T) {
	h := startOneWindow(t)
	h.askForm(context.Background(), "shop", "Your name?")
	h.waitFor(1)
	h.askForm(context.Background(), "notes", "Your city?")
	h.waitFor(2)
	h.eventually("shop's window alone", func() bool { return windowNames(h.d) == "shop" })
	h.ui(func() {
		s := h.d.settings
		s.MaxWindows = 2
		h.d.applySettings(s)
	})
	h.eventually("notes's window", func() bool { return windowNames(h.d) == "shop notes" })
}

// TestSettingsSayWhyNoNotifications: where none can show, Settings says
// why beside the Notifications choice, and says nothing where they can.
func TestSettingsSayWhyNoNotifications(t *testing.T) {
	for _, why := range []string{"None can show: no notification server runs on this desktop.", ""} {
		h := startWith(t, `{"mcpServers":{}}`, func(_ *Options, co *core.Options) { co.NoNotifications = why })
		h.ui(func() {
			h.d.showSettings()
			all := ""
			for _, s := range uitest.WindowTexts(h.d.settingsW) {
				all += s.Text + "\n"
			}
			if said := strings.Contains(all, "None can show"); said != (why != "") {
				t.Errorf("with %q Settings says:\n%s", why, all)
			}
		})
	}
}

// TestSettingsTabsByKeys: Ctrl+Tab and Ctrl+Shift+Tab move between
// Settings' tabs from every control of each tab that takes shortcuts
// itself (a number's spin, the patterns' entry), as Fyne hands them a
// shortcut first; the others let the window's canvas have it. Escape in a
// spin closes the window.
func TestSettingsTabsByKeys(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.ui(func() {
		h.d.showSettings()
		w := h.d.settingsW
		var tabs *container.AppTabs
		for _, x := range test.LaidOutObjects(w.Content()) {
			if t, ok := x.(*container.AppTabs); ok {
				tabs = t
			}
		}
		next := &desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl}
		back := &desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift}
		tried := 0
		for i := range tabs.Items {
			tabs.SelectIndex(i)
			var takers []fyne.Shortcutable
			for _, x := range test.LaidOutObjects(tabs.Items[i].Content) {
				if s, ok := x.(fyne.Shortcutable); ok && x.Visible() {
					takers = append(takers, s)
				}
			}
			for _, s := range takers {
				for _, step := range []struct {
					s    fyne.Shortcut
					want int
				}{{next, (i + 1) % len(tabs.Items)}, {back, (i + len(tabs.Items) - 1) % len(tabs.Items)}} {
					tabs.SelectIndex(i)
					w.Canvas().Focus(s.(fyne.Focusable))
					s.TypedShortcut(step.s)
					if got := tabs.SelectedIndex(); got != step.want {
						t.Errorf("%s from %T on %s: tab %d, want %d", step.s.ShortcutName(), s, tabs.Items[i].Text, got, step.want)
					}
				}
				tried++
			}
		}
		if tried < 3 {
			t.Errorf("tried %d controls that take shortcuts, want the two spins and the patterns' entry", tried)
		}
		tabs.SelectIndex(0)
		for _, x := range test.LaidOutObjects(w.Content()) {
			if s, ok := x.(*spin); ok && s.Visible() {
				w.Canvas().Focus(s)
				break
			}
		}
		if _, ok := w.Canvas().Focused().(*spin); !ok {
			t.Fatalf("the keyboard is on %T, want a spin", w.Canvas().Focused())
		}
		w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if h.d.settingsW != nil {
			t.Error("Escape in a number's spin left Settings open")
		}
	})
}

// TestSettingsEscapeFromEveryControl: Escape closes Settings from every
// control that can have the keyboard, on every tab, the servers' check
// boxes under Traffic among them (Fyne's check group kept it).
func TestSettingsEscapeFromEveryControl(t *testing.T) {
	h := start(t, `{"mcpServers":{"demo":{"command":"elicitdesk","args":["demo-server"]}}}`)
	// open shows Settings on tab and returns the controls there that can
	// have the keyboard.
	open := func(tab int) (fyne.Window, []fyne.Focusable) {
		h.d.showSettings()
		w := h.d.settingsW
		var controls []fyne.Focusable
		for _, x := range test.LaidOutObjects(w.Content()) {
			if tabs, ok := x.(*container.AppTabs); ok {
				tabs.SelectIndex(tab)
				for _, x := range test.LaidOutObjects(tabs.Items[tab].Content) {
					d, disables := x.(fyne.Disableable)
					if f, ok := x.(fyne.Focusable); ok && x.Visible() && (!disables || !d.Disabled()) {
						controls = append(controls, f)
					}
				}
			}
		}
		return w, controls
	}
	h.ui(func() {
		tried := map[string]bool{}
		for tab := range 3 {
			for i := 0; ; i++ {
				w, controls := open(tab)
				if i == len(controls) {
					w.Close()
					break
				}
				c := controls[i]
				w.Canvas().Focus(c)
				c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
				name := fmt.Sprintf("%T on tab %d", c, tab)
				tried[name] = true
				if h.d.settingsW != nil {
					t.Errorf("Escape from %s left Settings open", name)
					w.Close()
				}
			}
		}
		if !tried["*keys.Check on tab 2"] {
			t.Errorf("tried %v, want a server's check box on the Traffic tab", tried)
		}
	})
}

// TestSettingsAsksBeforeDiscarding: Escape, Cancel or the window's close
// with a setting changed asks first, as the Add server dialog does; Keep
// editing keeps the change, Discard closes. Unchanged, they close at once.
func TestSettingsAsksBeforeDiscarding(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.ui(func() {
		// Kept as Traffic keeps them, in the order ticked, or none as an
		// empty list: the form reads them sorted, nil for none.
		for _, kept := range [][]string{{"zeta", "alpha"}, {}} {
			h.d.settings.Capture.Servers = kept
			h.d.showSettings()
			w := h.d.settingsW
			w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
			if h.d.settingsW != nil {
				t.Errorf("Escape with nothing changed asked (servers kept as %q)", kept)
				w.Close()
			}
		}
		h.d.settings.Capture.Servers = nil
		for _, leave := range []struct {
			name string
			do   func(w fyne.Window)
		}{
			{"Escape", func(w fyne.Window) { w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape}) }},
			{"Cancel", func(w fyne.Window) { tap(t, w, "Cancel") }},
		} {
			h.d.showSettings()
			w := h.d.settingsW
			leave.do(w)
			if h.d.settingsW != nil {
				t.Errorf("%s with nothing changed left Settings open", leave.name)
				w.Close()
			}
			h.d.showSettings()
			w = h.d.settingsW
			var notify *keys.Check
			for _, o := range test.LaidOutObjects(w.Content()) {
				if c, ok := o.(*keys.Check); ok && strings.HasPrefix(c.Text, "Notify me") {
					notify = c
				}
			}
			notify.SetChecked(!notify.Checked)
			leave.do(w)
			if h.d.settingsW == nil || w.Canvas().Overlays().Top() == nil {
				t.Fatalf("%s with a change closed Settings without asking", leave.name)
			}
			tapOverlay(t, w, "Keep editing")
			if h.d.settingsW == nil || notify.Checked == h.d.settings.Notify {
				t.Errorf("Keep editing after %s lost the change", leave.name)
			}
			leave.do(w)
			tapOverlay(t, w, "Discard")
			if h.d.settingsW != nil {
				t.Errorf("Discard after %s left Settings open", leave.name)
			}
		}
	})
}

// TestDaysSayWhatTheyCount: the retention's number is named with its unit,
// which on screen is a label beside it, and its − and + say it too.
func TestDaysSayWhatTheyCount(t *testing.T) {
	f := newSettingsForm(DefaultSettings, false, true, "", "/state/traffic.jsonl", nil, keys.Close(test.NewTempWindow(t, nil), nil))
	if got := f.days.AccessibleTitle(); got != "Keep requests for (days)" {
		t.Errorf("the days are named %q", got)
	}
	if got, want := f.days.down.AccessibleDescription(), strconv.Itoa(int(DefaultSettings.Retention/day))+" days"; got != want {
		t.Errorf("− says %q, want %q", got, want)
	}
	if f.windows.AccessibleTitle() != "" {
		t.Errorf("the windows' number is named %q, not by its label", f.windows.AccessibleTitle())
	}
}
