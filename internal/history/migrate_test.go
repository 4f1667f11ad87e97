package history

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/servers"
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
func writeVersion1(t *testing.T) string { return writeVersion(t, 1) }

// writeVersion writes a history as version v (1 to 4) had it, holding one
// entry (id 1000, message "old"), and returns its path.
func writeVersion(t *testing.T, v int) string {
	t.Helper()
	path := filepath.Join(isolate(t), "history.db")
	old, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	schema := ddl
	for _, cut := range []struct {
		from    int // the first version with the columns
		columns string
	}{
		{5, ",\n\tmachine          TEXT NOT NULL DEFAULT '' -- the machine a bridged server runs on, through its forward; '' for this one"},
		{3, ",\n\thost_name        TEXT NOT NULL DEFAULT '', -- the host a bridged server asked for; '' outside the bridge\n\thost_title       TEXT NOT NULL DEFAULT '',\n\thost_version     TEXT NOT NULL DEFAULT ''"},
		{2, ",\n\tsize             INTEGER, -- see Cut: NULL when kept whole\n\tsha256           TEXT"},
	} {
		if v >= cut.from {
			continue
		}
		shorter := strings.Replace(schema, cut.columns, "", 1)
		if shorter == schema {
			t.Fatalf("the version %d schema could not be made from ddl", v)
		}
		schema = shorter
	}
	if v >= 4 {
		schema += addSettings
	}
	for _, q := range []string{schema, `INSERT INTO entries (id, server_name, server_target, reported_name, reported_title, reported_version, message, mode, url, outcome, reason)
		VALUES (1000, 's', 't', '', '', '', 'old', 'form', '', 'declined', '')`, fmt.Sprintf("PRAGMA user_version = %d", v)} {
		if _, err := old.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()
	return path
}

// TestOlderVersions checks that histories of versions 1 to 4, written
// before the host, the size cap or the machine was kept in them, open
// read-only unchanged and read-write brought to the current version, and
// keep their entries; a new entry keeps its host and its machine.
func TestOlderVersions(t *testing.T) {
	for _, v := range []int{1, 2, 3, 4} {
		t.Run(fmt.Sprintf("version %d", v), func(t *testing.T) {
			path := writeVersion(t, v)
			ro, err := OpenReadOnly(path)
			if err != nil {
				t.Fatal(err)
			}
			if list, err := ro.Search(t.Context(), Query{}); err != nil || len(list) != 1 || list[0].Message != "old" || list[0].Server.Host != (servers.HostInfo{}) {
				t.Fatalf("read-only Search = %+v, %v", list, err)
			}
			var version int
			if err := ro.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != v {
				t.Errorf("reading made the file version %d (%v)", version, err)
			}
			ro.Close()

			s, err := Open(path, quiet(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if e, err := s.Get(t.Context(), 1000); err != nil || e.Message != "old" {
				t.Fatalf("old entry %+v %v", e, err)
			}
			host := servers.HostInfo{Name: "claude-ai", Title: "Claude Desktop", Version: "0.9"}
			id, err := s.Add(t.Context(), Entry{Server: servers.Identity{Name: "files", Host: host, Machine: "devbox"}, Message: "new", Mode: "form", Outcome: NoWindow, Received: time.UnixMilli(2000)})
			if err != nil {
				t.Fatal(err)
			}
			if e, err := s.Get(t.Context(), id); err != nil || e.Server.Host != host || e.Server.Machine != "devbox" {
				t.Fatalf("new entry's host %+v, machine %q, %v", e.Server.Host, e.Server.Machine, err)
			}
			if list, err := s.Search(t.Context(), Query{Text: "devbox"}); err != nil || len(list) != 1 || list[0].ID != id {
				t.Errorf("a search for the machine finds %+v, %v", list, err)
			}
		})
	}
}
