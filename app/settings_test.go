package app

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

func TestSettingsHistoryMaxBytes(t *testing.T) {
	tests := []struct {
		name  string
		prefs map[string]int // preferences set before loading
		want  int64
	}{
		{"unset is the default", nil, history.DefaultMaxBytes},
		{"a choice is kept", map[string]int{core.PrefHistoryMaxMB: 64}, 64 << 20},
		{"1 GB", map[string]int{core.PrefHistoryMaxMB: 1024}, 1 << 30},
		{"not a choice gives its default", map[string]int{core.PrefHistoryMaxMB: 3}, history.DefaultMaxBytes},
		{"unlimited is not offered", map[string]int{core.PrefHistoryMaxMB: 0}, history.DefaultMaxBytes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := test.NewTempApp(t).Preferences()
			for k, v := range tt.prefs {
				p.SetInt(k, v)
			}
			s := loadSettings(p)
			if s.HistoryMaxBytes != tt.want {
				t.Errorf("loaded %d, want %d", s.HistoryMaxBytes, tt.want)
			}
			s.save(p)
			if got := loadSettings(p); !reflect.DeepEqual(got, s) {
				t.Errorf("saved %+v, loaded %+v", s, got)
			}
		})
	}
}

// TestWindowsOnlyReadHistory: the windows open the history read-only, so
// the core stays its one writer; the window's Clear goes through the core.
func TestWindowsOnlyReadHistory(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"} {
		t.Setenv(v, filepath.Join(dir, strings.ToLower(v)))
	}
	a := test.NewTempApp(t)
	h := &harness{t: t, dir: dir}
	ctx, cancel := context.WithCancel(context.Background())
	h.ui(func() { h.start(ctx, a, filepath.Join(dir, "servers.json"), func(*Options, *core.Options) {}) })
	t.Cleanup(h.close(cancel))
	if err := h.d.history.Clear(context.Background()); err == nil {
		t.Error("the windows' process cleared the history file itself")
	}
	if err := h.d.core.ClearHistory(context.Background()); err != nil {
		t.Errorf("the core did not clear the history: %v", err)
	}
}

// TestSettingsBoundsAreTheCores: what the Settings window refuses, the
// core refuses too, and what it keeps the core takes.
func TestSettingsBoundsAreTheCores(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Settings)
	}{
		{"the defaults", func(*Settings) {}},
		{"a day", func(s *Settings) { s.Retention = day }},
		{"no days", func(s *Settings) { s.Retention = 0 }},
		{"a day and a half", func(s *Settings) { s.Retention = day + day/2 }},
		{"past ten years", func(s *Settings) { s.Retention = 3651 * day }},
		{"a size off the list", func(s *Settings) { s.HistoryMaxBytes = 3 << 20 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := DefaultSettings
			tt.edit(&s)
			window, core := s.check() == "", s.HistoryLimits().Check() == nil
			if window != core {
				t.Errorf("%+v: the Settings window takes it: %v, the core: %v", s, window, core)
			}
		})
	}
}

// TestABadSettingKeepsTheOthers: a stored value that is not valid any more
// falls back to its own default only; the retention the person chose stays,
// or the next prune would delete what they meant to keep.
func TestABadSettingKeepsTheOthers(t *testing.T) {
	p := test.NewTempApp(t).Preferences()
	p.SetInt(core.PrefRetentionDays, 365)
	p.SetInt(core.PrefMaxWindows, 5)
	p.SetInt(core.PrefHistoryMaxMB, 3) // no longer a choice
	want := DefaultSettings
	want.MaxWindows, want.Retention = 5, 365*day
	if got := loadSettings(p); !reflect.DeepEqual(got, want) {
		t.Errorf("loaded %+v, want %+v", got, want)
	}
}

// TestSettingsLoadSave keeps every option, and a stored value out of
// bounds falls back to its default.
func TestSettingsLoadSave(t *testing.T) {
	tests := []struct {
		name string
		set  func(p fyne.Preferences)
		want func(s *Settings)
	}{
		{"defaults", func(fyne.Preferences) {}, func(*Settings) {}},
		{"every option", func(p fyne.Preferences) {
			Settings{MaxWindows: 20, Retention: 3650 * day, HistoryMaxBytes: 64 << 20, Theme: look.Light, Notify: false,
				Capture: traffic.Scope{All: true, Servers: []string{"notes", "my\nserver"}, Sessions: []string{"s-1"}},
				Redact:  []string{"ACME-[0-9]+", `\bsecret\b`}}.save(p)
		}, func(s *Settings) {
			*s = Settings{MaxWindows: 20, Retention: 3650 * day, HistoryMaxBytes: 64 << 20, Theme: look.Light, Notify: false,
				Capture: traffic.Scope{All: true, Servers: []string{"notes", "my\nserver"}}, // a session ends with the app
				Redact:  []string{"ACME-[0-9]+", `\bsecret\b`}}
		}},
		{"unreadable servers to capture", func(p fyne.Preferences) { p.SetString(core.PrefCaptureOf, "notes") }, func(*Settings) {}},
		{"a pattern that does not compile", func(p fyne.Preferences) { p.SetString(core.PrefRedact, "ok\n(") }, func(*Settings) {}},
		{"the smallest", func(p fyne.Preferences) { p.SetInt(core.PrefMaxWindows, 1); p.SetInt(core.PrefRetentionDays, 1) },
			func(s *Settings) { s.MaxWindows, s.Retention = 1, day }},
		{"too many windows", func(p fyne.Preferences) { p.SetInt(core.PrefMaxWindows, 21) }, func(*Settings) {}},
		{"no windows", func(p fyne.Preferences) { p.SetInt(core.PrefMaxWindows, 0) }, func(*Settings) {}},
		{"no days", func(p fyne.Preferences) { p.SetInt(core.PrefRetentionDays, 0) }, func(*Settings) {}},
		{"too many days", func(p fyne.Preferences) { p.SetInt(core.PrefRetentionDays, 3651) }, func(*Settings) {}},
		{"an unknown look", func(p fyne.Preferences) { p.SetString(prefTheme, "sepia") }, func(*Settings) {}},
		{"dark", func(p fyne.Preferences) { p.SetString(prefTheme, "dark") }, func(s *Settings) { s.Theme = look.Dark }},
		{"notifications off", func(p fyne.Preferences) { p.SetBool(core.PrefNotify, false) }, func(s *Settings) { s.Notify = false }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := test.NewTempApp(t).Preferences()
			tt.set(p)
			want := DefaultSettings
			tt.want(&want)
			got := loadSettings(p)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("loaded %+v, want %+v", got, want)
			}
			got.save(p)
			if again := loadSettings(p); !reflect.DeepEqual(again, got) {
				t.Errorf("saved %+v, loaded %+v", got, again)
			}
		})
	}
}
