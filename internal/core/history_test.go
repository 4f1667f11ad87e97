package core

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
)

// historyRecorder is a recorder that also notes each HistoryChanged.
type historyRecorder struct {
	*recorder
	changed chan struct{}
}

func (r historyRecorder) HistoryChanged() { r.changed <- struct{}{} }

// addOld writes an entry received days ago to the core's history, and
// waits for it.
func addOld(t *testing.T, s *started, days int) {
	t.Helper()
	at := time.Now().Add(-time.Duration(days) * history.Day)
	if _, err := s.c.history.Add(context.Background(), history.Entry{Server: servers.Identity{Name: "notes"}, Message: "old",
		Mode: servers.ModeForm, Outcome: history.Declined, Received: at, Answered: at}); err != nil {
		t.Fatal(err)
	}
}

// entries counts the history's entries once every write so far is done.
func entries(t *testing.T, s *started) int {
	t.Helper()
	s.c.Flush()
	es, err := s.c.history.Search(context.Background(), history.Query{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

// remote reaches s's core over a private connection as the windows'
// process does, without attaching.
func remote(t *testing.T, s *started) *Remote {
	t.Helper()
	p := serveUI(t, s)
	t.Cleanup(func() { p.conn.Close() })
	return NewRemote(p.conn)
}

// TestSetHistoryLimitsChecked: limits outside the Settings window's bounds
// are refused, from this process or the windows', and prune nothing; limits
// within them apply at once.
func TestSetHistoryLimitsChecked(t *testing.T) {
	const size = history.DefaultMaxBytes
	tests := []struct {
		name   string
		limits HistoryLimits
		want   error
	}{
		{"zero", HistoryLimits{Retention: 0, MaxBytes: size}, history.ErrRetention},
		{"negative", HistoryLimits{Retention: -history.Day, MaxBytes: size}, history.ErrRetention},
		{"a day and a half", HistoryLimits{Retention: 36 * time.Hour, MaxBytes: size}, history.ErrRetention},
		{"under a day", HistoryLimits{Retention: time.Hour, MaxBytes: size}, history.ErrRetention},
		{"past ten years", HistoryLimits{Retention: 3651 * history.Day, MaxBytes: size}, history.ErrRetention},
		{"no size", HistoryLimits{Retention: history.Day, MaxBytes: 0}, history.ErrSize},
		{"a size off the list", HistoryLimits{Retention: history.Day, MaxBytes: 1 << 20}, history.ErrSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t)
			addOld(t, s, 2)
			if err := s.c.SetHistoryLimits(t.Context(), tt.limits); !errors.Is(err, tt.want) {
				t.Errorf("SetHistoryLimits: %v, want %v", err, tt.want)
			}
			if err := remote(t, s).SetHistoryLimits(t.Context(), tt.limits); err == nil || err.Error() != tt.want.Error() {
				t.Errorf("SetHistoryLimits from the windows: %v, want %v", err, tt.want)
			}
			if n := entries(t, s); n != 1 {
				t.Errorf("%d entries left, want the 1 kept", n)
			}
			s.c.mu.Lock()
			got := s.c.limits
			s.c.mu.Unlock()
			if got.Retention != history.DefaultRetention || got.MaxBytes != size {
				t.Errorf("the limits are now %+v", got)
			}
		})
	}
	t.Run("one day", func(t *testing.T) {
		s := start(t)
		addOld(t, s, 2)
		if err := remote(t, s).SetHistoryLimits(t.Context(), HistoryLimits{Retention: history.Day, MaxBytes: size}); err != nil {
			t.Fatal(err)
		}
		if n := entries(t, s); n != 0 {
			t.Errorf("%d entries left, want the 2-day-old one pruned", n)
		}
	})
}

// TestClearHistory: the windows' Clear goes through the core, which
// deletes every entry and tells the windows the history changed.
func TestClearHistory(t *testing.T) {
	s := start(t)
	for days := range 3 {
		addOld(t, s, days)
	}
	rec := historyRecorder{newRecorder(), make(chan struct{}, 16)}
	ctx, cancel := context.WithCancel(context.Background())
	attached := make(chan error, 1)
	go func() { attached <- s.c.Attach(ctx, rec) }()
	t.Cleanup(func() { cancel(); <-attached })
	rec.until(t, "the servers", func() bool { return rec.servers > 0 })

	if err := remote(t, s).ClearHistory(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-rec.changed:
	case <-time.After(20 * time.Second):
		t.Fatal("the windows were not told the history changed")
	}
	if n := entries(t, s); n != 0 {
		t.Errorf("%d entries left after Clear", n)
	}
}
