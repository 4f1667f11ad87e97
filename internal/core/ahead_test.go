package core

import (
	"context"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
)

// TestStartedAhead: a host's session through the bridge with a server
// that has asked the person before starts a windows' process before any
// request; one with a server that never asked does not. A process started
// ahead that ends unused is not started again for it.
func TestStartedAhead(t *testing.T) {
	s := start(t)
	at := time.Now()
	if _, err := s.c.history.Add(context.Background(), history.Entry{Server: servers.Identity{Name: "asked"}, Message: "before",
		Mode: servers.ModeForm, Outcome: history.Declined, Received: at, Answered: at}); err != nil {
		t.Fatal(err)
	}
	c, err := endpoint.Dial(t.Context(), s.path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go c.Bridge(t.Context(), endpoint.Bridged{ID: "s1", Server: "never-asked", Host: endpoint.Peer{Name: "codex"}})
	eventually(t, "the first session listed", func() bool { return len(s.c.Bridged()) == 1 })
	go c.Bridge(t.Context(), endpoint.Bridged{ID: "s2", Server: "asked", Host: endpoint.Peer{Name: "codex"}})
	var ui uiProcess
	select {
	case ui = <-s.starts:
	case <-time.After(20 * time.Second):
		t.Fatal("no windows' process started ahead of the session's requests")
	}
	if n := len(s.c.Bridged()); n != 2 {
		t.Errorf("%d sessions listed when the windows' process started, want both: the first started none", n)
	}
	ui.exited <- nil // unused, it idled out
	eventually(t, "the windows' supervision to end", func() bool {
		s.c.mu.Lock()
		defer s.c.mu.Unlock()
		return !s.c.starting
	})
	select {
	case <-s.starts:
		t.Error("a windows' process started ahead was started again with nothing to show")
	default:
	}
}
