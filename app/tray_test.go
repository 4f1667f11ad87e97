package app

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"github.com/elicitdesk/elicitdesk/internal/tray"
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

// TestTrayMenuOpensRequests: the core's tray lists every request that
// waits, and picking one opens its window, also one waiting for a window.
func TestTrayMenuOpensRequests(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.ui(func() { h.d.queue.max = 1 })
	h.askForm(context.Background(), "shop", "Your name?")
	h.askForm(context.Background(), "notes", "Your city?")
	h.request(1)
	var queued *request
	h.ui(func() { queued = h.d.queue.waiting[0] })
	var labels []string
	for _, i := range h.core.TrayItems() {
		labels = append(labels, i.Label)
	}
	if got := strings.Join(labels, "|"); !strings.HasPrefix(got, "2 requests waiting||") || !strings.Contains(got, "|shop: Your name? (") || !strings.Contains(got, "|notes: Your city? (") {
		t.Errorf("menu %q", labels)
	}
	trayItem(t, h, queued.Server.Name+": ").Action()
	h.eventually("the queued request's window", func() bool { return queued.win != nil })
}

// trayItem is the core's tray entry whose label starts with prefix.
func trayItem(t *testing.T, h *harness, prefix string) tray.Item {
	t.Helper()
	for _, i := range h.core.TrayItems() {
		if strings.HasPrefix(i.Label, prefix) && !i.Separator {
			return i
		}
	}
	t.Fatalf("no tray entry %q", prefix)
	return tray.Item{}
}

// trayMenu is the core's tray menu as a Fyne menu, for the checks of what
// a menu shows.
func trayMenu(h *harness) *fyne.Menu {
	m := fyne.NewMenu("")
	for _, i := range h.core.TrayItems() {
		if i.Separator {
			m.Items = append(m.Items, fyne.NewMenuItemSeparator())
			continue
		}
		m.Items = append(m.Items, &fyne.MenuItem{Label: i.Label, Disabled: i.Disabled, Checked: i.Checked})
	}
	return m
}
