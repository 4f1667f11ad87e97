package history

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
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
	used, err := s.UsedBytes(t.Context())
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

func TestSetMaxBytes(t *testing.T) {
	tests := []struct {
		set, want int64
	}{
		{0, DefaultMaxBytes},
		{-1, DefaultMaxBytes},
		{64 << 20, 64 << 20},
		{1 << 30, 1 << 30},
	}
	s, err := Open(filepath.Join(isolate(t), "history.db"), quiet(), Options{MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.MaxBytes(); got != 1<<20 {
		t.Errorf("Open with 1 MB: MaxBytes is %d", got)
	}
	for _, tt := range tests {
		s.SetMaxBytes(tt.set)
		if got := s.MaxBytes(); got != tt.want {
			t.Errorf("SetMaxBytes(%d): MaxBytes is %d, want %d", tt.set, got, tt.want)
		}
	}
}

// TestSetMaxBytesPrunes checks that a lower cap applies to the open store:
// at once with PruneToMaxBytes, or at the next check while entries are
// added, even when set during the writes.
func TestSetMaxBytesPrunes(t *testing.T) {
	s, err := Open(filepath.Join(isolate(t), "history.db"), quiet(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	message := untrusted.Text(strings.Repeat("m", 30<<10))
	add := func(i int) int64 {
		id, err := s.Add(t.Context(), Entry{Message: message, Mode: "form", Outcome: Declined, Received: time.UnixMilli(int64(1_000_000 + i))})
		if err != nil {
			t.Error(err)
		}
		return id
	}
	var last int64
	for i := range 20 {
		last = add(i)
	}
	before, err := s.UsedBytes(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	capped := before / 2
	s.SetMaxBytes(capped)
	n, err := s.PruneToMaxBytes(t.Context())
	if err != nil || n == 0 {
		t.Fatalf("PruneToMaxBytes deleted %d entries (%v)", n, err)
	}
	if used, err := s.UsedBytes(t.Context()); err != nil || used > capped {
		t.Errorf("%d bytes in use for a cap of %d (%v)", used, capped, err)
	}
	if _, err := s.Get(t.Context(), last); err != nil {
		t.Errorf("the newest entry went: %v", err)
	}
	if n, err := s.PruneToMaxBytes(t.Context()); err != nil || n != 0 {
		t.Errorf("a second PruneToMaxBytes deleted %d entries (%v)", n, err)
	}

	// Lowered again while another goroutine writes: the writes' checks prune.
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range capCheckEvery {
			last = add(100 + i)
		}
	}()
	s.SetMaxBytes(capped / 2)
	<-done
	bound := capped/2 + capCheckEvery*int64(len(message)+4<<10)
	if used, err := s.UsedBytes(t.Context()); err != nil || used > bound {
		t.Errorf("%d bytes in use after the writes, over %d (%v)", used, bound, err)
	}
	if _, err := s.Get(t.Context(), last); err != nil {
		t.Errorf("the newest entry went: %v", err)
	}
}

// TestSizeCapKeepsHistoryWithAFullIndex writes messages of many distinct
// words, whose full-text index is as large as the rows. Deleting rows
// frees little of the index until it is merged, so a pruning that only
// measured the pages deleted everything: the history must never be
// emptied, and must end near the cap.
func TestSizeCapKeepsHistoryWithAFullIndex(t *testing.T) {
	const maxBytes = 256 << 10
	s, err := Open(filepath.Join(isolate(t), "history.db"), quiet(), Options{MaxBytes: maxBytes})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	var newest int64
	for i := range 160 {
		words := make([]string, 600)
		for j := range words {
			words[j] = strconv.FormatUint(rng.Uint64(), 36)
		}
		e := Entry{Message: untrusted.Text(strings.Join(words, " ")), Mode: "form", Outcome: Declined, Received: time.UnixMilli(int64(1_000_000 + i))}
		if newest, err = s.Add(t.Context(), e); err != nil {
			t.Fatal(err)
		}
		if (i+1)%capCheckEvery == 0 {
			var n int
			if err := s.db.QueryRowContext(t.Context(), `SELECT count(*) FROM entries`).Scan(&n); err != nil || n == 0 {
				t.Fatalf("after %d writes the history holds %d entries (%v)", i+1, n, err)
			}
		}
	}
	if _, err := s.Get(t.Context(), newest); err != nil {
		t.Errorf("the newest entry went: %v", err)
	}
	used, err := s.UsedBytes(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if bound := int64(maxBytes + capCheckEvery*32<<10); used > bound {
		t.Errorf("%d bytes in use, over %d", used, bound)
	}
}
