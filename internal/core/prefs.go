package core

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/history"
)

// Prefs are the settings the core runs by. The Settings window keeps them
// in Fyne's preferences; the core, which runs without Fyne, reads them
// from Fyne's file at start (PrefsFile), and is told of changes after.
type Prefs struct {
	History HistoryLimits
	Windows WindowPrefs
	Traffic TrafficPrefs
}

// DefaultPrefs: three windows, ninety days, 256 MB, notifications on, no
// capture.
func DefaultPrefs() Prefs {
	return Prefs{
		History: HistoryLimits{Retention: history.DefaultRetention, MaxBytes: history.DefaultMaxBytes},
		Windows: WindowPrefs{Max: DefaultMaxWindows, Notify: true},
	}
}

// The preferences' keys.
const (
	PrefMaxWindows    = "maxWindows"
	PrefRetentionDays = "retentionDays"
	PrefHistoryMaxMB  = "historyMaxMB" // in MB, as a preference is an int
	PrefNotify        = "notifications"
	PrefCapture       = "trafficCapture"        // every server's
	PrefCaptureOf     = "trafficCaptureServers" // the servers named, a JSON array
	PrefRedact        = "trafficRedact"         // the patterns, a line each
)

// PrefsReader reads preferences: fyne.Preferences, or Fyne's file as the
// core reads it.
type PrefsReader interface {
	IntWithFallback(key string, fallback int) int
	StringWithFallback(key, fallback string) string
	BoolWithFallback(key string, fallback bool) bool
}

// PrefsWriter writes preferences: fyne.Preferences.
type PrefsWriter interface {
	SetInt(key string, value int)
	SetString(key, value string)
	SetBool(key string, value bool)
}

// ReadPrefs reads the core's settings from r. Each stored value is taken
// on its own: a bad one falls back to its own default only. A stale size
// must not reset the retention, whose next prune would delete what the
// person chose to keep.
func ReadPrefs(r PrefsReader) Prefs {
	d := DefaultPrefs()
	p := d
	for _, read := range []func(*Prefs){
		func(p *Prefs) { p.Windows.Max = r.IntWithFallback(PrefMaxWindows, d.Windows.Max) },
		func(p *Prefs) {
			p.History.Retention = time.Duration(r.IntWithFallback(PrefRetentionDays, int(d.History.Retention/history.Day))) * history.Day
		},
		func(p *Prefs) {
			p.History.MaxBytes = int64(r.IntWithFallback(PrefHistoryMaxMB, int(d.History.MaxBytes>>20))) << 20
		},
		func(p *Prefs) { p.Windows.Notify = r.BoolWithFallback(PrefNotify, d.Windows.Notify) },
		func(p *Prefs) { p.Traffic.Capture.All = r.BoolWithFallback(PrefCapture, d.Traffic.Capture.All) },
		func(p *Prefs) {
			if err := json.Unmarshal([]byte(r.StringWithFallback(PrefCaptureOf, "null")), &p.Traffic.Capture.Servers); err != nil {
				p.Traffic.Capture.Servers = nil
			}
		},
		func(p *Prefs) { p.Traffic.Redact = PatternLines(r.StringWithFallback(PrefRedact, "")) },
	} {
		next := p
		read(&next)
		if next.Check() == nil {
			p = next
		}
	}
	return p
}

// Save writes p to w, as ReadPrefs reads it.
func (p Prefs) Save(w PrefsWriter) {
	w.SetInt(PrefMaxWindows, p.Windows.Max)
	w.SetInt(PrefRetentionDays, int(p.History.Retention/history.Day))
	w.SetInt(PrefHistoryMaxMB, int(p.History.MaxBytes>>20))
	w.SetBool(PrefNotify, p.Windows.Notify)
	w.SetBool(PrefCapture, p.Traffic.Capture.All)
	servers, _ := json.Marshal(p.Traffic.Capture.Servers) // a name may hold any character
	w.SetString(PrefCaptureOf, string(servers))
	w.SetString(PrefRedact, strings.Join(p.Traffic.Redact, "\n"))
}

// Check says what is wrong with p, by the bounds the core holds the
// windows' changes to.
func (p Prefs) Check() error {
	if err := p.Traffic.Check(); err != nil {
		return err
	}
	if err := p.Windows.Check(); err != nil {
		return err
	}
	return p.History.Check()
}

// PatternLines are the patterns of text, one a line, blank lines left out.
func PatternLines(text string) []string {
	var out []string
	for line := range strings.Lines(text) {
		if line = strings.TrimRight(line, "\r\n"); strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}

// PrefsPath is where Fyne keeps the preferences of the app with id.
func PrefsPath(id string) string {
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

// PrefsFile reads the core's settings from the preferences Fyne keeps at
// path, each missing or bad one its default, as the Settings window reads
// them.
func PrefsFile(path string) Prefs {
	var prefs filePrefs
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, &prefs) // unreadable: the defaults
	}
	return ReadPrefs(prefs)
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
