package app

import (
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

// noTrayCloses are the answers a setting may hold.
func noTrayCloses() []noTrayClose { return []noTrayClose{closeAsks, closeKeepsRunning, closeQuits} }

// DefaultSettings: the core's defaults (core.DefaultPrefs), the
// desktop's look.
var DefaultSettings = settingsOf(core.DefaultPrefs())

// settingsOf are the settings holding p, the rest their defaults.
func settingsOf(p core.Prefs) Settings {
	return Settings{MaxWindows: p.Windows.Max, Retention: p.History.Retention, HistoryMaxBytes: p.History.MaxBytes,
		Theme: look.FollowDesktop, Notify: p.Windows.Notify, Capture: p.Traffic.Capture, Redact: p.Traffic.Redact}
}

// The keys of the preferences the windows keep to themselves; the core's
// are core's.
const (
	prefNoTrayClose = "noTrayClose"
	prefTheme       = "theme"
)

// loadSettings reads the settings from p, each missing or bad one its
// default (core.ReadPrefs).
func loadSettings(p core.PrefsReader) Settings {
	s := settingsOf(core.ReadPrefs(p))
	if c := noTrayClose(p.StringWithFallback(prefNoTrayClose, "")); slices.Contains(noTrayCloses(), c) {
		s.NoTrayClose = c
	}
	if c := look.Choice(p.StringWithFallback(prefTheme, "")); slices.Contains(look.Choices(), c) {
		s.Theme = c
	}
	return s
}

func (s Settings) save(p fyne.Preferences) {
	s.prefs().Save(p)
	p.SetString(prefNoTrayClose, string(s.NoTrayClose))
	p.SetString(prefTheme, string(s.Theme))
}

const day = history.Day

// prefs are the settings the core runs by.
func (s Settings) prefs() core.Prefs {
	return core.Prefs{History: s.HistoryLimits(), Windows: s.WindowPrefs(), Traffic: s.TrafficPrefs()}
}

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
	switch err := s.prefs().Check(); {
	case err != nil:
		return sentence(err) // the core's own check
	case !slices.Contains(noTrayCloses(), s.NoTrayClose):
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
