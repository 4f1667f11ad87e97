package app

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/servers"
)

// TestTrayState: the icon, the line about servers and the summary follow
// the requests and the statuses, each on its own.
func TestTrayState(t *testing.T) {
	failedAt := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	shown, queued, answered := &request{}, &request{}, &request{ended: true}
	tests := []struct {
		name         string
		open, queued []*request
		statuses     []servers.Status
		icon         string
		down         string
		summary      string
	}{
		{"all well", nil, nil, []servers.Status{{Name: "demo", State: servers.StateReady}}, "tray.png", "", "No requests waiting"},
		{"requests wait", []*request{shown, answered}, []*request{queued}, nil, "tray-waiting.png", "", "2 requests waiting"},
		{"one server failed", nil, nil, []servers.Status{
			{Name: "demo", State: servers.StateReady},
			{Name: "files", State: servers.StateFailed, FailedSince: failedAt},
		}, "tray-problem.png", "files can't connect…", "No requests waiting"},
		{"both", []*request{shown}, nil, []servers.Status{
			{Name: "files", State: servers.StateConnecting, FailedSince: failedAt}, // trying again
			{Name: "remote", State: servers.StateNeedsSignIn},
			{Name: "wiki", State: servers.StateFailed},
		}, "tray-waiting-problem.png", "3 servers can't connect…", "1 request waiting"},
		{"not problems", nil, nil, []servers.Status{
			{Name: "new", State: servers.StateConnecting}, // a first attempt
			{Name: "off", State: servers.StateDisabled},
			{Name: "gone", State: servers.StateStopped},
		}, "tray.png", "", "No requests waiting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := trayStateOf(tt.open, tt.queued, tt.statuses)
			if got := st.icon().Name(); got != tt.icon {
				t.Errorf("icon %s, want %s", got, tt.icon)
			}
			if got := st.downLine(); got != tt.down {
				t.Errorf("line %q, want %q", got, tt.down)
			}
			if got := st.summary(); got != tt.summary {
				t.Errorf("summary %q, want %q", got, tt.summary)
			}
		})
	}
}

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

// TestServerDownNotification: the Desk sends one notification for a ready
// server that fails and then keeps retrying, saying why in the server's
// own last words; a click opens the Servers window.
func TestServerDownNotification(t *testing.T) {
	h, f := notifying(t)
	exit := exec.Command("/bin/sh", "-c", "exit 1").Run()
	stderr := "Warning: Cannot access directory /home/me/projects, skipping\nError: None of the specified directories are accessible\n"
	failed := servers.Status{Name: "files", State: servers.StateFailed, Stderr: stderr,
		Err: &servers.StartError{Err: fmt.Errorf("initializing: %w", errors.New("EOF")), Stderr: stderr, Exit: exit}}
	h.ui(func() {
		h.d.noticeDown(servers.Status{Name: "files", State: servers.StateReady})
		h.d.noticeDown(failed)
		retrying := failed
		retrying.State = servers.StateConnecting
		h.d.noticeDown(retrying)
		h.d.noticeDown(failed)
	})
	id := <-f.notified
	f.mu.Lock()
	n := f.shown[id]
	f.mu.Unlock()
	if n.Summary != "files can't connect" || !strings.Contains(n.Body, "“None of the specified directories are accessible”") {
		t.Errorf("notification %q: %q", n.Summary, n.Body)
	}
	h.d.noticing.Wait()
	select {
	case id := <-f.notified:
		t.Errorf("a second notification %q for the retries", f.shown[id].Summary)
	default:
	}
	h.eventually("the notice to be kept", func() bool { return h.d.notices.get(id).server == "files" })
	h.ui(func() {
		h.d.clicked(id)
		if !h.d.serversWin.Window().Content().Visible() {
			t.Error("the click did not show the Servers window")
		}
	})
}

// TestTrayMenuMarksQueued: the menu tells the requests with a window from
// those waiting for one; picking a waiting one opens it.
func TestTrayMenuMarksQueued(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.ui(func() { h.d.queue.max = 1 })
	h.askForm(context.Background(), "shop", "Your name?")
	h.askForm(context.Background(), "notes", "Your city?")
	shown, queued := h.request(0), h.request(1)
	labels := func() []string {
		var out []string
		for _, i := range h.d.trayItems(h.d.trayState()) {
			if !i.IsSeparator {
				out = append(out, i.Label)
			}
		}
		return out
	}
	h.ui(func() {
		want := []string{"2 requests waiting", "In a window", menuLabel(shown), "Waiting for a window", menuLabel(queued)}
		if got := labels(); strings.Join(got[:5], "|") != strings.Join(want, "|") {
			t.Errorf("menu %q, want it to start %q", got, want)
		}
		menuItem(t, h.d.trayItems(h.d.trayState()), menuLabel(queued)).Action()
		if queued.win == nil {
			t.Fatal("picking a waiting request did not open it")
		}
		want = []string{"2 requests waiting", "In a window", menuLabel(shown), menuLabel(queued), "Servers…"}
		if got := labels(); strings.Join(got[:5], "|") != strings.Join(want, "|") {
			t.Errorf("menu %q, want it to start %q", got, want)
		}
	})
}
