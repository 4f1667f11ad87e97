package historyview

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/portal"
)

func TestAfterSystemDialog(t *testing.T) {
	tests := []struct {
		name string
		path string
		err  error
		want saveStep
	}{
		{"chosen", "/home/ada/h.jsonl", nil, writeFile},
		{"cancelled", "", nil, cancelled},
		{"no portal", "", fmt.Errorf("%w: ServiceUnknown", portal.ErrNoPortal), ownDialog},
		{"the portal failed", "", errors.New("access denied"), failed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := afterSystemDialog(tt.path, tt.err); got != tt.want {
				t.Errorf("afterSystemDialog(%q, %v) = %v, want %v", tt.path, tt.err, got, tt.want)
			}
		})
	}
}

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
			h.button("Export…").OnTapped()
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
