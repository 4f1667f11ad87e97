package historyview

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/internal/desktop/portal"
	"github.com/elicitdesk/elicitdesk/internal/history"
)

// TestExport exports through a system dialog that chooses a file, one
// that is not there, and none: only the first writes without Fyne's
// own dialog.
func TestExport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.jsonl")
	tests := []struct {
		name   string
		dialog func(ctx context.Context, parent, name string) (string, error)
		fyne   bool // Fyne's Save dialog shows
		wrote  bool
	}{
		{"the system's dialog", func(_ context.Context, _, name string) (string, error) {
			if name != exportName {
				return "", fmt.Errorf("suggested %q", name)
			}
			return path, nil
		}, false, true},
		{"cancelled", func(context.Context, string, string) (string, error) { return "", nil }, false, false},
		{"no portal", func(context.Context, string, string) (string, error) { return "", portal.ErrNoPortal }, true, false},
		{"none on this system", nil, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(path)
			h := open(t, Options{SaveDialog: tt.dialog})
			h.button("Export all…").OnTapped()
			if got := h.w.win.Canvas().Overlays().Top() != nil; got != tt.fyne {
				t.Errorf("Fyne's dialog shows: %v, want %v", got, tt.fyne)
			}
			raw, err := os.ReadFile(path)
			if wrote := err == nil; wrote != tt.wrote {
				t.Fatalf("wrote the file: %v (%v)", wrote, err)
			}
			if !tt.wrote {
				return
			}
			if n := strings.Count(string(raw), "\n"); n != 4 {
				t.Errorf("exported %d lines, want 4", n)
			}
			if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
				t.Errorf("the export is readable by others: %v", info.Mode())
			}
			if h.w.status.Text != "Exported to "+path {
				t.Errorf("status %q", h.w.status.Text)
			}
		})
	}
}

func TestExportLabel(t *testing.T) {
	tests := []struct {
		n    int
		q    history.Query
		want string
	}{
		{4, history.Query{Limit: listLimit}, "Export all…"},
		{listLimit, history.Query{Limit: listLimit}, "Export all…"},
		{12, history.Query{Text: "deploy"}, "Export 12 shown…"},
		{1, history.Query{Server: "files"}, "Export 1 shown…"},
		{3, history.Query{Outcome: history.Stale}, "Export 3 shown…"},
		{listLimit, history.Query{Text: "deploy"}, "Export all that match…"},
	}
	for _, tt := range tests {
		if got := exportLabel(tt.n, tt.q); got != tt.want {
			t.Errorf("exportLabel(%d, %+v) = %q, want %q", tt.n, tt.q, got, tt.want)
		}
	}
}

// TestExportWhatItSays exports with and without a search and filters: the
// button says what it exports, and the file holds exactly that.
func TestExportWhatItSays(t *testing.T) {
	tests := []struct {
		name            string
		text            string
		server, outcome string
		label           string
		want            []string // the messages exported
	}{
		{"nothing narrows", "", allServers, allOutcomes, "Export all…",
			[]string{"Sign in", "Delete the **folder**? [see](https://evil.example)", "Deploy to production?", "Deploy staging"}},
		{"a search", "deploy", allServers, allOutcomes, "Export 2 shown…", []string{"Deploy to production?", "Deploy staging"}},
		{"a filter", "", allServers, "Declined", "Export 1 shown…", []string{"Delete the **folder**? [see](https://evil.example)"}},
		{"nothing matches", "zebra", allServers, allOutcomes, "Export 0 shown…", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out.jsonl")
			h := open(t, Options{SaveDialog: func(context.Context, string, string) (string, error) { return path, nil }})
			test.Type(h.w.search, tt.text)
			h.w.server.SetSelected(tt.server)
			h.w.outcome.SetSelected(tt.outcome)
			b := h.button(tt.label)
			if b.Disabled() != (len(tt.want) == 0) {
				t.Fatalf("%q disabled: %v", tt.label, b.Disabled())
			}
			if b.Disabled() {
				return
			}
			test.Tap(b)
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for line := range strings.Lines(string(raw)) {
				var e struct{ Message string }
				if err := json.Unmarshal([]byte(line), &e); err != nil {
					t.Fatal(err)
				}
				got = append(got, e.Message)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("exported %q, want %q", got, tt.want)
			}
		})
	}
}
