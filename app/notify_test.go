package app

import (
	"context"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/internal/core"
)

// notifyingHere starts a Desk whose core has no notification server of
// its own, so that it has the windows show its notifications through
// Fyne, as on macOS and Windows.
func notifyingHere(t *testing.T) *harness {
	return startWith(t, `{"mcpServers":{}}`, func(_ *Options, co *core.Options) { co.NotifyInWindows = true })
}

// titles are the titles of the notifications the Desk sent so far.
func (h *harness) titles() []string {
	var out []string
	for _, n := range h.notifications() {
		out = append(out, n.Title)
	}
	return out
}

// TestNotificationShownHere: a request that arrives while the person works
// elsewhere is told of in a notification the windows show, saying who
// asks and what.
func TestNotificationShownHere(t *testing.T) {
	h := notifyingHere(t)
	h.askForm(context.Background(), "notes", "Who are you?")
	h.eventually("the notification", func() bool { return len(h.notifications()) > 0 })
	if got := h.notifications(); len(got) != 1 || *got[0] != (fyne.Notification{Title: "notes asks", Content: "Who are you?"}) {
		t.Errorf("notifications %q, want one: notes asks, Who are you?", h.titles())
	}
}

// TestClosedWindowGivesUpFocus: Fyne never tells that a closed window had
// focus, so without the windows' own word the next request, arriving while
// the person works elsewhere, would not be notified.
func TestClosedWindowGivesUpFocus(t *testing.T) {
	h := notifyingHere(t)
	h.ui(func() { h.d.fyne.Lifecycle().(interface{ OnEnteredForeground() func() }).OnEnteredForeground()() })
	got := h.askForm(context.Background(), "a", "One?")
	r := h.request(0)
	h.ui(func() { test.Tap(button(t, content(r), "Decline")) })
	<-got
	h.windowsClosed()
	h.eventually("the core told the windows lost the keyboard", func() bool { return h.focusTold(false) })
	h.askForm(context.Background(), "b", "Two?")
	h.eventually("b's notification", func() bool { return slices.Contains(h.titles(), "b asks") })
}
