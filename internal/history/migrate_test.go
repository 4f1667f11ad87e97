package history

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMigrateFromVersion1 checks that a history written before Cut existed
// opens, keeps its entries and records new ones.
func TestMigrateFromVersion1(t *testing.T) {
	path := writeVersion1(t)
	s, err := Open(path, quiet(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if e, err := s.Get(t.Context(), 1000); err != nil || e.Message != "old" || e.Cut != nil {
		t.Fatalf("old entry %+v %v", e, err)
	}
	id, err := s.Add(t.Context(), Entry{Message: "new", Mode: "form", Outcome: RateLimited, Schema: []byte(`"` + strings.Repeat("s", MaxRefusedSchemaBytes) + `"`), Received: time.UnixMilli(2000)})
	if err != nil {
		t.Fatal(err)
	}
	if e, err := s.Get(t.Context(), id); err != nil || e.Cut == nil {
		t.Fatalf("new entry %+v %v", e.Cut, err)
	}
}

// TestReadOnlyVersion1: elicitdesk history reads a file the app has not
// brought to version 2 yet, changing nothing in it.
func TestReadOnlyVersion1(t *testing.T) {
	path := writeVersion1(t)
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if e, err := s.Get(t.Context(), 1000); err != nil || e.Message != "old" || e.Cut != nil {
		t.Fatalf("Get = %+v, %v", e, err)
	}
	if list, err := s.Search(t.Context(), Query{}); err != nil || len(list) != 1 {
		t.Fatalf("Search = %d entries, %v", len(list), err)
	}
	var version int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != 1 {
		t.Errorf("the file is now version %d (%v)", version, err)
	}
}

// writeVersion1 writes a history as version 1 had it, holding one entry
// (id 1000, message "old"), and returns its path.
func writeVersion1(t *testing.T) string {
	t.Helper()
	path := filepath.Join(isolate(t), "history.db")
	old, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	v1 := strings.Replace(ddl, "answered         INTEGER,\n\tsize             INTEGER, -- see Cut: NULL when kept whole\n\tsha256           TEXT", "answered         INTEGER", 1)
	if v1 == ddl {
		t.Fatal("the version 1 schema could not be made from ddl")
	}
	for _, q := range []string{v1, `INSERT INTO entries (id, server_name, server_target, reported_name, reported_title, reported_version, message, mode, url, outcome, reason)
		VALUES (1000, 's', 't', '', '', '', 'old', 'form', '', 'declined', '')`, `PRAGMA user_version = 1`} {
		if _, err := old.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()
	return path
}
