package app

import (
	"time"

	"fyne.io/fyne/v2"

	"github.com/elicitdesk/elicitdesk/internal/history"
)

// Settings are the person's choices, kept in the app's preferences.
type Settings struct {
	MaxWindows int           // request windows open at once; the rest wait in the tray menu
	Retention  time.Duration // how long the history keeps a request
}

// DefaultSettings: three windows, ninety days.
var DefaultSettings = Settings{MaxWindows: 3, Retention: history.DefaultRetention}

// Bounds of the settings, so a typo cannot hide every request or keep
// nothing.
const (
	maxMaxWindows = 20
	maxRetention  = 10 * 365 * 24 * time.Hour
)

const (
	prefMaxWindows    = "maxWindows"
	prefRetentionDays = "retentionDays"
)

func loadSettings(p fyne.Preferences) Settings {
	s := Settings{
		MaxWindows: p.IntWithFallback(prefMaxWindows, DefaultSettings.MaxWindows),
		Retention:  time.Duration(p.IntWithFallback(prefRetentionDays, int(DefaultSettings.Retention/day))) * day,
	}
	if s.check() != "" {
		return DefaultSettings
	}
	return s
}

func (s Settings) save(p fyne.Preferences) {
	p.SetInt(prefMaxWindows, s.MaxWindows)
	p.SetInt(prefRetentionDays, int(s.Retention/day))
}

const day = 24 * time.Hour

// check says what is wrong with s, in words for the Settings window.
func (s Settings) check() string {
	switch {
	case s.MaxWindows < 1 || s.MaxWindows > maxMaxWindows:
		return "Open between 1 and 20 request windows at once."
	case s.Retention < day || s.Retention > maxRetention:
		return "Keep the history between 1 and 3650 days."
	}
	return ""
}
