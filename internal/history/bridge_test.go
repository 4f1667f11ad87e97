package history

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/servers"
)

// bridgedEntry is a request of a bridged server that no window could show,
// as the bridge records it while no app runs.
func bridgedEntry(n int) Entry {
	at := time.Date(2026, 11, 23, 10, 42, 0, 0, time.UTC).Add(time.Duration(n) * time.Second)
	return Entry{
		Server: servers.Identity{
			Name: "files", Target: "npx files-mcp",
			Reported: servers.ServerInfo{Name: "files-mcp"},
			Host:     servers.HostInfo{Name: "claude-ai", Title: "Claude Desktop", Version: "0.9"},
		},
		Message: "Pick a folder", Mode: servers.ModeForm,
		Schema:  json.RawMessage(`{"type":"object","properties":{}}`),
		Outcome: NoWindow, Reason: "Elicit Desk is not running",
		Received: at, Answered: at,
	}
}

// TestHostAndNoWindow checks that the host and the no-window outcome are
// stored, searched, filtered and exported, and that an entry without a
// host exports no host.
func TestHostAndNoWindow(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	e := bridgedEntry(0)
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
	if diff := entryDiff(got, want); diff != "" {
		t.Error(diff)
	}
	if _, err := s.Add(ctx, fixtures()[0]); err != nil {
		t.Fatal(err)
	}
	for _, q := range []Query{{Outcome: NoWindow}, {Text: "Claude"}} {
		if list, err := s.Search(ctx, q); err != nil || len(list) != 1 || list[0].ID != id {
			t.Errorf("Search(%+v) = %d entries, %v; want the bridged one", q, len(list), err)
		}
	}
	raw, _ := json.Marshal(got)
	if !strings.Contains(string(raw), `"host":{"name":"claude-ai","title":"Claude Desktop","version":"0.9"}`) || !strings.Contains(string(raw), `"outcome":"no-window"`) {
		t.Errorf("export %s lacks the host or the outcome", raw)
	}
	if raw, _ := json.Marshal(fixtures()[0]); strings.Contains(string(raw), `"host"`) {
		t.Errorf("an entry without a host exports one: %s", raw)
	}
	if r := string(got.Response()); r != `{"action":"cancel"}` {
		t.Errorf("Response() = %s, want the cancel that was sent", r)
	}
}

// TestConcurrentWriters has two stores on one file write at once, as the
// bridge does while the app starts or quits: neither fails with
// SQLITE_BUSY, neither moves to a file of its own, and every entry is kept.
func TestConcurrentWriters(t *testing.T) {
	path := isolate(t) + "/history.db"
	stores := make([]*Store, 2)
	for i := range stores {
		s, err := Open(path, quiet(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if s.Notice() != "" || s.Path() != path {
			t.Fatalf("store %d: %q at %s", i, s.Notice(), s.Path())
		}
		stores[i] = s
	}
	const each = 40
	var wg sync.WaitGroup
	for i, s := range stores {
		for n := range each {
			wg.Go(func() {
				if _, err := s.Add(context.Background(), bridgedEntry(i*each+n)); err != nil {
					t.Errorf("store %d, entry %d: %v", i, n, err)
				}
			})
		}
	}
	wg.Wait()
	if list, err := stores[0].Search(context.Background(), Query{}); err != nil || len(list) != 2*each {
		t.Errorf("%d entries, %v; want %d", len(list), err, 2*each)
	}
}
