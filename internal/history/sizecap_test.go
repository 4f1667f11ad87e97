package history

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/untrusted"
)

// TestSizeCap checks that the history stays near Options.MaxBytes by
// deleting its oldest entries, and keeps the newest.
func TestSizeCap(t *testing.T) {
	const maxBytes = 1 << 20
	path := filepath.Join(isolate(t), "history.db")
	s, err := Open(path, quiet(), Options{MaxBytes: maxBytes})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	message := untrusted.Text(strings.Repeat("m", 30<<10))
	var last int64
	for i := range 240 { // 7 MB written in all
		if last, err = s.Add(t.Context(), Entry{Message: message, Mode: "form", Outcome: Declined, Received: time.UnixMilli(int64(1_000_000 + i))}); err != nil {
			t.Fatal(err)
		}
	}
	used, err := s.usedBytes(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// At most capCheckEvery writes land between two checks.
	bound := int64(maxBytes + capCheckEvery*(len(message)+4<<10))
	if used > bound {
		t.Errorf("%d bytes in use, over %d", used, bound)
	}
	// The file also holds the pages freed by the last deletion.
	if info, err := os.Stat(path); err != nil || info.Size() > 2*bound {
		t.Errorf("file of %d bytes for a cap of %d (%v)", info.Size(), maxBytes, err)
	}
	if _, err := s.Get(t.Context(), last); err != nil {
		t.Errorf("the newest entry went: %v", err)
	}
	if _, err := s.Get(t.Context(), 1_000_000); err == nil {
		t.Error("the oldest entry is still there")
	}
}
