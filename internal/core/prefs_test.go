package core

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// TestPrefsFile reads the core's settings from Fyne's preferences file as
// the Settings window keeps it (testdata/prefs): each missing or bad value
// its own default, the others kept.
func TestPrefsFile(t *testing.T) {
	tests := []struct {
		file string
		want func(*Prefs)
	}{
		{"missing.json", func(*Prefs) {}},
		{"truncated.json", func(*Prefs) {}},
		{"every-option.json", func(p *Prefs) {
			*p = Prefs{
				History: HistoryLimits{Retention: 3650 * history.Day, MaxBytes: 64 << 20},
				Windows: WindowPrefs{Max: 20},
				Traffic: TrafficPrefs{Capture: traffic.Scope{All: true, Servers: []string{"notes", "my\nserver"}},
					Redact: []string{"ACME-[0-9]+", `\bsecret\b`}},
			}
		}},
		{"bad-size.json", func(p *Prefs) { p.Windows.Max, p.History.Retention = 5, 365*history.Day }},
		{"wrong-types.json", func(*Prefs) {}},
		{"out-of-bounds.json", func(*Prefs) {}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			want := DefaultPrefs()
			tt.want(&want)
			if got := PrefsFile(filepath.Join("testdata", "prefs", tt.file)); !reflect.DeepEqual(got, want) {
				t.Errorf("read %+v, want %+v", got, want)
			}
		})
	}
}
