package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
	"github.com/elicitdesk/elicitdesk/servers"
)

// TestDownWatch: a notification when a ready server fails, not on its
// retries, not for one that never connected, and one at most per
// downQuiet for a server that flaps.
func TestDownWatch(t *testing.T) {
	t0 := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	type step struct {
		state servers.State
		after time.Duration // since t0
		tell  bool
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"never connected", []step{{servers.StateConnecting, 0, false}, {servers.StateFailed, 1, false}, {servers.StateConnecting, 2, false}, {servers.StateFailed, 3, false}}},
		{"ready then failed, then retries", []step{
			{servers.StateConnecting, 0, false}, {servers.StateReady, 1, false}, {servers.StateFailed, 2, true},
			{servers.StateConnecting, 3, false}, {servers.StateFailed, 4, false}, {servers.StateConnecting, 5, false}, {servers.StateFailed, 6, false},
		}},
		{"flapping", []step{
			{servers.StateReady, 0, false}, {servers.StateFailed, time.Second, true},
			{servers.StateReady, 2 * time.Second, false}, {servers.StateFailed, 3 * time.Second, false},
			{servers.StateReady, 5 * time.Minute, false}, {servers.StateFailed, 5*time.Minute + time.Second, false},
			{servers.StateReady, downQuiet + time.Second, false}, {servers.StateFailed, downQuiet + 2*time.Second, true},
		}},
		{"sign-in expired", []step{{servers.StateReady, 0, false}, {servers.StateNeedsSignIn, 1, true}}},
		{"disabled or stopped", []step{
			{servers.StateReady, 0, false}, {servers.StateDisabled, 1, false},
			{servers.StateReady, 2, false}, {servers.StateStopped, 3, false},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w downWatch
			for i, s := range tt.steps {
				if got := w.fell(servers.Status{Name: "files", State: s.state}, t0.Add(s.after)); got != s.tell {
					t.Errorf("step %d (%s): tell %v, want %v", i, s.state, got, s.tell)
				}
			}
		})
	}
	var w downWatch // servers are watched apart
	w.fell(servers.Status{Name: "a", State: servers.StateReady}, t0)
	w.fell(servers.Status{Name: "b", State: servers.StateReady}, t0)
	if !w.fell(servers.Status{Name: "a", State: servers.StateFailed}, t0) || !w.fell(servers.Status{Name: "b", State: servers.StateFailed}, t0) {
		t.Error("one server's failure hid another's")
	}
}

// notifier is a notification server that keeps what it is shown.
type notifier struct {
	mu        sync.Mutex
	shown     []notify.Notice
	withdrawn []uint32
}

func (n *notifier) Notify(_ context.Context, x notify.Notice) (uint32, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.shown = append(n.shown, x)
	return uint32(len(n.shown)), nil
}

func (n *notifier) Withdraw(_ context.Context, id uint32) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.withdrawn = append(n.withdrawn, id)
	return nil
}

func (*notifier) Close() error { return nil }

// TestServerDownNotification: the core sends one notification for a ready
// server that fails and then keeps retrying, saying why in the server's
// own last words; a click asks the windows for the Servers window at that
// server.
func TestServerDownNotification(t *testing.T) {
	n := &notifier{}
	s := startWith(t, func(o *Options) { o.Notifier = n })
	rec := newRecorder()
	shows := make(chan Show, 1)
	go s.c.Attach(t.Context(), showsTo{rec, shows})
	exit := exec.Command("/bin/sh", "-c", "exit 1").Run()
	stderr := "Warning: Cannot access directory /home/me/projects, skipping\nError: None of the specified directories are accessible\n"
	failed := servers.Status{Name: "files", State: servers.StateFailed, Stderr: stderr,
		Err: &servers.StartError{Err: fmt.Errorf("initializing: %w", errors.New("EOF")), Stderr: stderr, Exit: exit}}
	s.c.noticeDown(servers.Status{Name: "files", State: servers.StateReady})
	s.c.noticeDown(failed)
	retrying := failed
	retrying.State = servers.StateConnecting
	s.c.noticeDown(retrying)
	s.c.noticeDown(failed)
	s.c.downs.sends.Wait()
	n.mu.Lock()
	shown := n.shown
	n.mu.Unlock()
	if len(shown) != 1 {
		t.Fatalf("%d notifications, want 1: %+v", len(shown), shown)
	}
	if shown[0].Summary != "files can't connect" || !strings.Contains(shown[0].Body, "“None of the specified directories are accessible”") {
		t.Errorf("notification %q: %q", shown[0].Summary, shown[0].Body)
	}
	s.c.NoticeClicked(1)
	if got := <-shows; got.Window != WindowServers || got.Server != "files" {
		t.Errorf("the click showed %+v, want the Servers window at files", got)
	}
}

// showsTo is a recorder that also passes on each Show.
type showsTo struct {
	*recorder
	shows chan<- Show
}

func (s showsTo) Show(w Show) { s.shows <- w }

// TestWaitingWithoutWindows: a windows' process that cannot open (no
// display) leaves the requests pending, and the person is told once that
// they wait; windows that open again end the quiet.
func TestWaitingWithoutWindows(t *testing.T) {
	n := &notifier{}
	failed := make(chan struct{}, 16)
	s := startWith(t, func(o *Options) {
		o.Notifier = n
		o.StartUI = func(context.Context) (io.ReadWriteCloser, <-chan error, error) {
			exited := make(chan error, 1)
			exited <- errors.New("exit status 1") // Xlib: no display
			failed <- struct{}{}
			ours, _ := net.Pipe()
			return ours, exited, nil
		}
	})
	answered := ask(s, "hello")
	<-failed
	<-failed
	<-failed // the second failure dealt with: told once
	s.c.downs.sends.Wait()
	n.mu.Lock()
	shown := slices.Clone(n.shown)
	n.mu.Unlock()
	if len(shown) != 1 || shown[0].Summary != "1 request waits" || !strings.Contains(shown[0].Body, "cannot open its windows (exit status 1)") {
		t.Errorf("notifications %+v, want one that 1 request waits", shown)
	}
	select {
	case err := <-answered:
		t.Errorf("the request ended without windows: %v", err)
	default:
	}
}

// lateNotifier is a notifier whose notification server has not started
// until up is set.
type lateNotifier struct {
	notifier
	up atomic.Bool
}

func (n *lateNotifier) Check(context.Context) error {
	if !n.up.Load() {
		return errors.New("no notification server")
	}
	return nil
}

// TestNotificationServerStartedLater: Settings says none can show while no
// notification server runs, and nothing once one has started.
func TestNotificationServerStartedLater(t *testing.T) {
	n := &lateNotifier{}
	s := startWith(t, func(o *Options) { o.StartUI, o.Notifier = nil, n })
	if why := s.c.NotificationsProblem(); !strings.Contains(why, "no notification server runs") {
		t.Errorf("with none running: %q, want it to say so", why)
	}
	n.up.Store(true)
	if why := s.c.NotificationsProblem(); why != "" {
		t.Errorf("once one runs: %q, want nothing", why)
	}
}
