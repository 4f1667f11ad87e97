package history

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// TestAddGet stores an entry and reads it back: the schema byte for byte,
// the content redacted, the times to the nanosecond.
func TestAddGet(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	e := fixtures()[4]
	e.Schema = json.RawMessage(`{"type": "object",  "properties": {"note": {"type":"string"}, "archivePassword": {"type": "string"}}}`)
	e.Received = time.Date(2026, 3, 1, 9, 0, 0, 123456789, time.UTC)
	id, err := s.Add(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := e
	want.ID = id
	want.Content = json.RawMessage(`{"archivePassword":"[redacted]","note":"for backups"}`)
	if diff := entryDiff(got, want); diff != "" {
		t.Error(diff)
	}
	if !bytes.Equal(got.Schema, e.Schema) {
		t.Errorf("schema came back as %s", got.Schema)
	}
	if _, err := s.Get(ctx, id+1); !errors.Is(err, sql.ErrNoRows) {
		t.Errorf("Get of a missing id: %v, want sql.ErrNoRows", err)
	}
}

func TestAddRefuses(t *testing.T) {
	s := newStore(t)
	tests := []struct {
		name   string
		change func(*Entry)
	}{
		{"unknown outcome", func(e *Entry) { e.Outcome = "maybe" }},
		{"no outcome", func(e *Entry) { e.Outcome = "" }},
		{"schema not JSON", func(e *Entry) { e.Schema = json.RawMessage(`{"type":`) }},
		{"content not JSON", func(e *Entry) { e.Content = json.RawMessage(`{"a":}`) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := fixtures()[0]
			tt.change(&e)
			if _, err := s.Add(context.Background(), e); err == nil {
				t.Error("Add accepted it")
			}
		})
	}
	if all, _ := s.Search(context.Background(), Query{}); len(all) != 0 {
		t.Errorf("refused entries were stored: %d", len(all))
	}
}

// TestDurableSettings checks the settings Add's promise rests on.
func TestDurableSettings(t *testing.T) {
	s := newStore(t)
	for pragma, want := range map[string]string{"journal_mode": "wal", "synchronous": "2", "busy_timeout": "5000"} {
		var got string
		if err := s.db.QueryRow("PRAGMA " + pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %s, want %s", pragma, got, want)
		}
	}
}

func TestExport(t *testing.T) {
	s := withFixtures(t)
	tests := []struct {
		name string
		q    Query
		want []int // fixture indexes, newest first
	}{
		{"all", Query{}, []int{6, 5, 4, 3, 2, 1, 0}},
		{"filtered", Query{Text: "the", Server: "files"}, []int{4, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := s.Export(context.Background(), &out, tt.q); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(&out)
			var exported []Entry
			for lines.Scan() {
				var m map[string]any
				if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
					t.Fatalf("line %q: %v", lines.Text(), err)
				}
				exported = append(exported, Entry{Message: untrusted.Text(m["message"].(string))})
				if _, err := time.Parse(time.RFC3339, m["received"].(string)); err != nil {
					t.Errorf("received: %v", err)
				}
				if name := m["server"].(map[string]any)["name"]; name == "" {
					t.Errorf("no server name in %s", lines.Text())
				}
			}
			if found := fixtureIndexes(exported); !slices.Equal(found, tt.want) {
				t.Errorf("exported %v, want %v", found, tt.want)
			}
		})
	}
}

func TestPrune(t *testing.T) {
	s := withFixtures(t)
	ctx := context.Background()
	cut := fixtures()[3].Received // fixtures 0 to 2 are older
	n, err := s.Prune(ctx, cut)
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("pruned %d, want 3", n)
	}
	for _, q := range []Query{{}, {Text: "café"}, {Text: "production"}, {Text: "sign"}} {
		got, err := s.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range got {
			if e.Received.Before(cut) {
				t.Errorf("%+v found pruned entry %d", q, e.ID)
			}
		}
	}
	if all, _ := s.Search(ctx, Query{}); len(all) != 4 {
		t.Errorf("%d entries left, want 4", len(all))
	}
}

func TestClear(t *testing.T) {
	s := withFixtures(t)
	ctx := context.Background()
	inFile := func() bool {
		var found bool
		for _, suffix := range []string{"", "-wal"} {
			raw, _ := os.ReadFile(s.Path() + suffix)
			found = found || bytes.Contains(raw, []byte("Deploy to production"))
		}
		return found
	}
	if !inFile() {
		t.Fatal("the message is not in the file before Clear: the check below proves nothing")
	}
	if err := s.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	for _, q := range []Query{{}, {Text: "deploy"}, {Server: "files"}} {
		if got, err := s.Search(ctx, q); err != nil || len(got) != 0 {
			t.Errorf("after Clear, %+v found %d (%v)", q, len(got), err)
		}
	}
	if names, _ := s.Servers(ctx); len(names) != 0 {
		t.Errorf("after Clear, servers %v", names)
	}
	if inFile() {
		t.Error("a cleared message is still in the file or its log")
	}
	if _, err := s.Add(ctx, fixtures()[0]); err != nil {
		t.Errorf("Add after Clear: %v", err)
	}
	if got, _ := s.Search(ctx, Query{Text: "deploy"}); len(got) != 1 {
		t.Errorf("after Clear and Add, found %d", len(got))
	}
}

func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	missing := filepath.Join(t.TempDir(), "none", "history.db")
	if _, err := OpenReadOnly(missing); err == nil {
		t.Error("a missing file opened")
	}
	if _, err := os.Stat(filepath.Dir(missing)); !errors.Is(err, os.ErrNotExist) {
		t.Error("OpenReadOnly created something")
	}

	w := withFixtures(t)
	r, err := OpenReadOnly(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got, err := r.Search(ctx, Query{Text: "deploy"}); err != nil || len(got) != 3 {
		t.Errorf("read-only search found %d (%v)", len(got), err)
	}
	if _, err := r.Add(ctx, fixtures()[0]); err == nil || !strings.Contains(err.Error(), "readonly") {
		t.Errorf("a read-only store wrote: %v", err)
	}
}

// TestNewestReceivedFirst adds requests in the order they ended, which is
// not the order they came in, two of them in the same millisecond: lists
// follow the time they came in, and none is lost.
func TestNewestReceivedFirst(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for _, add := range []struct {
		message  string
		received time.Duration
	}{
		{"came second", time.Minute},
		{"came first", 0},
		{"came third", 2 * time.Minute},
		{"came third too", 2 * time.Minute},
	} {
		e := fixtures()[0]
		e.Message, e.Received = untrusted.Text(add.message), at.Add(add.received)
		if _, err := s.Add(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []Query{{}, {Text: "came"}} {
		got, err := s.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, e := range got {
			order = append(order, string(e.Message))
		}
		if want := "came third too,came third,came second,came first"; strings.Join(order, ",") != want {
			t.Errorf("%+v lists %v, want %s", q, order, want)
		}
	}
}

// TestOddPaths opens histories whose paths hold characters a file: URI
// gives meaning to.
func TestOddPaths(t *testing.T) {
	for _, dir := range []string{"with space", "hash#dir", "query?dir", "percent%41dir", "ünï"} {
		t.Run(dir, func(t *testing.T) {
			path := filepath.Join(isolate(t), dir, "history.db")
			s, err := Open(path, quiet(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.Add(context.Background(), fixtures()[0]); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("the history is not where asked: %v", err)
			}
		})
	}
}
