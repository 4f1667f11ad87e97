package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/elicitdesk/elicitdesk/app/historyview"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// Settings are the person's choices, kept in the app's preferences.
// Launch at login is not among them: the autostart entry on disk is where
// it is kept.
type Settings struct {
	MaxWindows int           // request windows open at once; the rest wait in the tray menu
	Retention  time.Duration // how long the history keeps a request
	// HistoryMaxBytes is the size the history keeps under, one of
	// history.SizeChoices.
	HistoryMaxBytes int64
	// NoTrayClose is what closing the Servers window does where no tray
	// icon stands in for the app: asked the first time, then kept.
	NoTrayClose noTrayClose
	Theme       look.Choice // light, dark or the desktop's
	Notify      bool        // a notification when a request arrives unseen
	// Capture is whose messages are kept, redacted, in the capture file:
	// every server's, or those of the servers named. The bridged sessions
	// it names end with the app: they are not saved. Redact are the
	// person's own patterns to redact.
	Capture traffic.Scope
	Redact  []string
}

// noTrayClose is the person's answer to backgroundQuestion.
type noTrayClose string

const (
	closeAsks         noTrayClose = "" // not asked yet
	closeKeepsRunning noTrayClose = "keep-running"
	closeQuits        noTrayClose = "quit"
)

// DefaultSettings: three windows, ninety days, 256 MB, the desktop's look,
// notifications on.
var DefaultSettings = Settings{MaxWindows: 3, Retention: history.DefaultRetention, HistoryMaxBytes: history.DefaultMaxBytes,
	Theme: look.FollowDesktop, Notify: true}

const (
	prefMaxWindows    = "maxWindows"
	prefRetentionDays = "retentionDays"
	prefHistoryMaxMB  = "historyMaxMB" // in MB, as a preference is an int
	prefNoTrayClose   = "noTrayClose"
	prefTheme         = "theme"
	prefNotify        = "notifications"
	prefCapture       = "trafficCapture"        // every server's
	prefCaptureOf     = "trafficCaptureServers" // the servers named, a JSON array
	prefRedact        = "trafficRedact"         // the patterns, a line each
)

// prefsReader is what loadSettings reads: fyne.Preferences, or Fyne's file
// as the core reads it.
type prefsReader interface {
	IntWithFallback(key string, fallback int) int
	StringWithFallback(key, fallback string) string
	BoolWithFallback(key string, fallback bool) bool
}

func loadSettings(p prefsReader) Settings {
	d := DefaultSettings
	s := d
	// Each stored value is taken on its own: a bad one falls back to its
	// own default only. A stale size must not reset the retention, whose
	// next prune would delete what the person chose to keep.
	for _, read := range []func(*Settings){
		func(s *Settings) { s.MaxWindows = p.IntWithFallback(prefMaxWindows, d.MaxWindows) },
		func(s *Settings) {
			s.Retention = time.Duration(p.IntWithFallback(prefRetentionDays, int(d.Retention/day))) * day
		},
		func(s *Settings) {
			s.HistoryMaxBytes = int64(p.IntWithFallback(prefHistoryMaxMB, int(d.HistoryMaxBytes>>20))) << 20
		},
		func(s *Settings) {
			s.NoTrayClose = noTrayClose(p.StringWithFallback(prefNoTrayClose, string(d.NoTrayClose)))
		},
		func(s *Settings) { s.Theme = look.Choice(p.StringWithFallback(prefTheme, string(d.Theme))) },
		func(s *Settings) { s.Notify = p.BoolWithFallback(prefNotify, d.Notify) },
		func(s *Settings) { s.Capture.All = p.BoolWithFallback(prefCapture, d.Capture.All) },
		func(s *Settings) {
			if err := json.Unmarshal([]byte(p.StringWithFallback(prefCaptureOf, "null")), &s.Capture.Servers); err != nil {
				s.Capture.Servers = nil
			}
		},
		func(s *Settings) { s.Redact = patternLines(p.StringWithFallback(prefRedact, "")) },
	} {
		next := s
		read(&next)
		if next.check() == "" {
			s = next
		}
	}
	return s
}

func (s Settings) save(p fyne.Preferences) {
	p.SetInt(prefMaxWindows, s.MaxWindows)
	p.SetInt(prefRetentionDays, int(s.Retention/day))
	p.SetInt(prefHistoryMaxMB, int(s.HistoryMaxBytes>>20))
	p.SetString(prefNoTrayClose, string(s.NoTrayClose))
	p.SetString(prefTheme, string(s.Theme))
	p.SetBool(prefNotify, s.Notify)
	p.SetBool(prefCapture, s.Capture.All)
	servers, _ := json.Marshal(s.Capture.Servers) // a name may hold any character
	p.SetString(prefCaptureOf, string(servers))
	p.SetString(prefRedact, strings.Join(s.Redact, "\n"))
}

// patternLines are the patterns of text, one a line, blank lines left out.
func patternLines(text string) []string {
	var out []string
	for line := range strings.Lines(text) {
		if line = strings.TrimRight(line, "\r\n"); strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}

const day = history.Day

// HistoryLimits are the settings the core keeps the history by.
func (s Settings) HistoryLimits() core.HistoryLimits {
	return core.HistoryLimits{Retention: s.Retention, MaxBytes: s.HistoryMaxBytes}
}

// WindowPrefs are the settings the core opens request windows by.
func (s Settings) WindowPrefs() core.WindowPrefs {
	return core.WindowPrefs{Max: s.MaxWindows, Notify: s.Notify}
}

// TrafficPrefs are the settings the core keeps traffic by.
func (s Settings) TrafficPrefs() core.TrafficPrefs {
	return core.TrafficPrefs{Capture: s.Capture, Redact: s.Redact}
}

// check says what is wrong with s, in words for the Settings window.
func (s Settings) check() string {
	limits := s.HistoryLimits().Check() // the core's own check of them
	traffic := s.TrafficPrefs().Check()
	switch {
	case traffic != nil:
		return sentence(traffic)
	case s.MaxWindows < core.MinWindows || s.MaxWindows > core.MaxWindows:
		return "Open between 1 and 20 request windows at once."
	case limits != nil:
		return sentence(limits)
	case !slices.Contains([]noTrayClose{closeAsks, closeKeepsRunning, closeQuits}, s.NoTrayClose):
		return "Closing the Servers window keeps running or quits."
	case !slices.Contains(look.Choices(), s.Theme):
		return "Choose the desktop's look, light or dark."
	}
	return ""
}

// sentence is err as the Settings window shows it: a capital, a full stop.
func sentence(err error) string {
	msg := err.Error()
	return strings.ToUpper(msg[:1]) + msg[1:] + "."
}

// losses says, one sentence each, what changing from s to next deletes
// from the history now: the Settings window asks before it saves.
func (s Settings) losses(next Settings) []string {
	var say []string
	if next.Retention < s.Retention {
		say = append(say, "Requests older than "+daysText(next.Retention)+" will be deleted now.")
	}
	if next.HistoryMaxBytes < s.HistoryMaxBytes {
		say = append(say, "If the history takes more than "+historyview.SizeText(next.HistoryMaxBytes)+
			", its oldest requests will be deleted now to keep it under.")
	}
	return say
}

// daysText is a retention in words: "1 day", "90 days".
func daysText(d time.Duration) string {
	if n := int(d / day); n != 1 {
		return strconv.Itoa(n) + " days"
	}
	return "1 day"
}

// PreferencesPath is where Fyne keeps the preferences of the app with id:
// the core, which runs without Fyne, reads the settings there.
func PreferencesPath(id string) string {
	dir, err := os.UserConfigDir()
	if runtime.GOOS == "darwin" { // Fyne's, not Go's
		dir, err = os.UserHomeDir()
		dir = filepath.Join(dir, "Library", "Preferences")
	}
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "fyne", id, "preferences.json")
}

// SettingsFile reads the settings Fyne keeps at path, each missing or bad
// one its default, as the app reads them.
func SettingsFile(path string) Settings {
	var prefs filePrefs
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, &prefs) // unreadable: the defaults
	}
	return loadSettings(prefs)
}

// filePrefs are Fyne's preferences as its file keeps them, read only.
type filePrefs map[string]any

func (p filePrefs) IntWithFallback(key string, fallback int) int {
	if f, ok := p[key].(float64); ok && f == float64(int(f)) {
		return int(f)
	}
	return fallback
}

func (p filePrefs) StringWithFallback(key, fallback string) string {
	if s, ok := p[key].(string); ok {
		return s
	}
	return fallback
}

func (p filePrefs) BoolWithFallback(key string, fallback bool) bool {
	if b, ok := p[key].(bool); ok {
		return b
	}
	return fallback
}
