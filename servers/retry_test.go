package servers

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// fakeClock is a clock the test moves.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// TestRetryNow checks what the status says of a failing server: when it
// first failed, which retries do not move, and when the next attempt is
// due, which Retry brings forward at once. The backoff is an hour, so
// only Retry can cause an attempt during the test; nothing sleeps.
func TestRetryNow(t *testing.T) {
	statuses := make(chan Status, 64)
	m := NewManager(NewRouter(DefaultLimits, quietLog()), quietLog(), func(s Status) { statuses <- s })
	defer m.Close()
	clock := &fakeClock{now: time.Date(2026, 11, 23, 16, 2, 0, 0, time.UTC)}
	m.now = clock.Now
	m.backoff = Backoff{Min: time.Hour, Max: 3 * time.Hour}
	dials := make(chan struct{}, 8)
	refused := errors.New("connection refused")
	m.dial = func(context.Context, config.Server, *Router, *slog.Logger) (*Conn, error) {
		dials <- struct{}{}
		return nil, refused
	}
	failed := func() Status {
		t.Helper()
		for s := range statuses {
			if s.State == StateFailed {
				return s
			}
		}
		panic("unreachable")
	}
	if m.Retry("nosuch") {
		t.Error("Retry of an unknown server reported a wake")
	}
	m.Apply(&config.File{Servers: []config.Server{{Name: "a", Transport: config.TransportHTTP, URL: "http://127.0.0.1:9/mcp"}}})
	<-dials
	first := failed()
	start := clock.Now()
	if !first.FailedSince.Equal(start) || !first.RetryAt.Equal(start.Add(time.Hour)) || first.Err != refused {
		t.Fatalf("first failure %+v", first)
	}

	for i, wait := range []time.Duration{2 * time.Hour, 3 * time.Hour, 3 * time.Hour} {
		clock.advance(time.Minute)
		if !m.Retry("a") {
			t.Fatalf("retry %d: the server was not waiting", i+1)
		}
		<-dials
		st := failed()
		if !st.FailedSince.Equal(start) {
			t.Errorf("retry %d moved FailedSince to %v", i+1, st.FailedSince)
		}
		if want := clock.Now().Add(wait); !st.RetryAt.Equal(want) {
			t.Errorf("retry %d: next attempt at %v, want %v (the backoff grows to its max)", i+1, st.RetryAt, want)
		}
	}
}

// A Retry while the server is not waiting does nothing, and leaves no
// token that would cut the next wait short.
func TestRetryWhileConnectedDoesNothing(t *testing.T) {
	m := NewManager(NewRouter(DefaultLimits, quietLog()), quietLog(), nil)
	defer m.Close()
	m.Apply(&config.File{Servers: []config.Server{demoStdio(t)}})
	c, err := m.WaitReady(context.Background(), "demo")
	if err != nil {
		t.Fatal(err)
	}
	if m.Retry("demo") {
		t.Error("Retry of a ready server reported a wake")
	}
	if st := statusOf(m, "demo"); !st.FailedSince.IsZero() || !st.RetryAt.IsZero() {
		t.Errorf("a ready server's status %+v", st)
	}
	if c2, _ := m.Conn("demo"); c2 != c {
		t.Error("Retry reconnected a ready server")
	}
}
