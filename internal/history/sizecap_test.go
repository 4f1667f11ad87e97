package history

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
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
	// Each write that would pass the cap prunes first.
	if used > maxBytes {
		t.Errorf("%d bytes in use, over %d", used, maxBytes)
	}
	// The file also holds the pages freed by the last deletion, which the
	// next writes take, and those the full-text index's merges took before
	// they freed others.
	if info, err := os.Stat(path); err != nil || info.Size() > maxBytes+maxBytes/64 {
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
		for i := range 32 {
			last = add(100 + i)
		}
	}()
	s.SetMaxBytes(capped / 2)
	<-done
	if used, err := s.UsedBytes(t.Context()); err != nil || used > capped/2 {
		t.Errorf("%d bytes in use after the writes, over %d (%v)", used, capped/2, err)
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
		if (i+1)%32 == 0 {
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
	if used > maxBytes {
		t.Errorf("%d bytes in use, over %d", used, maxBytes)
	}
}

// TestPruneStopsAtTarget grows histories of several kinds of entries a
// tenth past their cap, then lowers the cap to them: pruning must bring
// them down to its target, an eighth under the cap, and no further than
// about an entry below it. A 1.1 GB history with a 1 GB cap whose oldest
// entries were the large ones was pruned to 658 MB, as if every entry
// took the same room.
func TestPruneStopsAtTarget(t *testing.T) {
	// Sizes are in proportion to the cap: a large entry a sixteenth of it.
	// (SQLite under -race takes 10 s here to fill 1 MB with small entries;
	// a cap of 1 MB is pruned to a page under what this test allows.)
	const maxBytes = 2 << 20
	const large = maxBytes / 16
	at := func(i int) time.Time { return time.UnixMilli(int64(1_000_000 + i)) }
	schema := func(n int) json.RawMessage { return json.RawMessage(`"` + strings.Repeat("s", n) + `"`) }
	words := func(i int) untrusted.Text {
		rng := rand.New(rand.NewPCG(uint64(i), 2))
		w := make([]string, 400)
		for j := range w {
			w[j] = strconv.FormatUint(rng.Uint64(), 36)
		}
		return untrusted.Text(strings.Join(w, " "))
	}
	tests := []struct {
		name  string
		batch int // entries written at a time, between looks at the space used
		entry func(i int) Entry
	}{
		{"large schemas", 20, func(i int) Entry {
			return Entry{Message: "m", Mode: "form", Outcome: NoWindow, Schema: schema(large), Received: at(i)}
		}},
		{"small entries", 200, func(i int) Entry {
			return Entry{Message: "hello there", Mode: "form", Outcome: Declined, Received: at(i)}
		}},
		{"distinct words", 20, func(i int) Entry {
			return Entry{Message: words(i), Mode: "form", Outcome: Declined, Received: at(i)}
		}},
		{"oldest large", 20, func(i int) Entry { // half the cap
			size := large
			if i >= 8 {
				size = 2 << 10
			}
			return Entry{Message: "m", Mode: "form", Outcome: NoWindow, Schema: schema(size), Received: at(i)}
		}},
		{"oldest small", 20, func(i int) Entry { // three tenths of the cap
			size := 2 << 10
			if i >= 300 {
				size = large
			}
			return Entry{Message: "m", Mode: "form", Outcome: NoWindow, Schema: schema(size), Received: at(i)}
		}},
		{"mixed", 20, func(i int) Entry {
			e := Entry{Message: words(i), Mode: "form", Outcome: Declined, Received: at(i)}
			if i%3 == 0 {
				e.Schema = schema(large * 2 / 5)
			}
			return e
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Open(filepath.Join(isolate(t), "history.db"), quiet(), Options{MaxBytes: 1 << 40})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var newest int64
			for i := 0; ; i += tt.batch {
				batch := make([]Entry, tt.batch)
				for j := range batch {
					batch[j] = tt.entry(i + j)
				}
				ids, err := s.addAll(t.Context(), batch)
				if err != nil {
					t.Fatal(err)
				}
				newest = ids[len(ids)-1]
				if used, err := s.UsedBytes(t.Context()); err != nil || used > maxBytes*11/10 {
					break
				}
			}
			s.SetMaxBytes(maxBytes)
			if _, err := s.PruneToMaxBytes(t.Context()); err != nil {
				t.Fatal(err)
			}
			used, err := s.UsedBytes(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			target := targetBytes(maxBytes)
			if low := target - maxBytes/16; used > target || used < low {
				t.Errorf("pruned to %d bytes in use, want %d to %d", used, low, target)
			}
			if _, err := s.Get(t.Context(), newest); err != nil {
				t.Errorf("the newest entry went: %v", err)
			}
		})
	}
}

// TestConcurrentPrunes has two stores on one file find it past the cap
// at once, as the app and a bridge may: only one pruning's worth goes.
func TestConcurrentPrunes(t *testing.T) {
	const maxBytes = 4 << 20
	path := filepath.Join(isolate(t), "history.db")
	stores := make([]*Store, 2)
	for i := range stores {
		s, err := Open(path, quiet(), Options{MaxBytes: 1 << 40})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores[i] = s
	}
	for i := 0; ; i++ {
		e := Entry{Message: "m", Mode: "form", Outcome: NoWindow, Schema: json.RawMessage(`"` + strings.Repeat("s", 100<<10) + `"`), Received: time.UnixMilli(int64(1_000_000 + i))}
		if _, err := stores[0].Add(t.Context(), e); err != nil {
			t.Fatal(err)
		}
		if used, err := stores[0].UsedBytes(t.Context()); err != nil || used > maxBytes*11/10 {
			break
		}
	}
	var wg sync.WaitGroup
	for _, s := range stores {
		s.SetMaxBytes(maxBytes)
		wg.Go(func() {
			if _, err := s.PruneToMaxBytes(t.Context()); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	target := targetBytes(maxBytes)
	if used, err := stores[1].UsedBytes(t.Context()); err != nil || used > target || used < target-maxBytes/16 {
		t.Errorf("pruned to %d bytes in use (%v), want %d to %d", used, err, target-maxBytes/16, target)
	}
}

// TestFileKeepsCap: the cap the app gave its store is kept in the file,
// and a store opened without one (the bridge's) keeps to it, and to a
// change the app makes later, rather than to DefaultMaxBytes.
func TestFileKeepsCap(t *testing.T) {
	path := filepath.Join(isolate(t), "history.db")
	fresh, err := Open(path, quiet(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fresh.MaxBytes(); got != DefaultMaxBytes {
		t.Errorf("a new history without a cap keeps to %d, want DefaultMaxBytes", got)
	}
	fresh.Close()

	app, err := Open(path, quiet(), Options{MaxBytes: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	bridge, err := Open(path, quiet(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer bridge.Close()
	if got := bridge.MaxBytes(); got != 1<<30 {
		t.Errorf("the bridge's store keeps to %d, want the app's %d", got, 1<<30)
	}

	// The app lowers the cap; the bridge's next write past it prunes to it.
	const small = 1 << 20
	app.SetMaxBytes(small)
	if _, err := app.PruneToMaxBytes(t.Context()); err != nil {
		t.Fatal(err)
	}
	var newest int64
	for i := range 20 {
		e := Entry{Message: "m", Mode: "form", Outcome: NoWindow, Schema: json.RawMessage(`"` + strings.Repeat("s", 100<<10) + `"`), Received: time.UnixMilli(int64(1_000_000 + i))}
		if newest, err = bridge.Add(t.Context(), e); err != nil {
			t.Fatal(err)
		}
	}
	if used, err := bridge.UsedBytes(t.Context()); err != nil || used > small {
		t.Errorf("%d bytes in use for the app's cap of %d (%v)", used, small, err)
	}
	if got := bridge.MaxBytes(); got != small {
		t.Errorf("the bridge's store keeps to %d, want the app's %d", got, small)
	}
	if _, err := bridge.Get(t.Context(), newest); err != nil {
		t.Errorf("the newest entry went: %v", err)
	}
}
