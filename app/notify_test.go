package app

import (
	"context"
	"errors"
	"sync"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
)

// fakeNotifier records notices; each event also goes to a channel, for a
// test to wait on.
type fakeNotifier struct {
	mu        sync.Mutex
	next      uint32
	shown     map[uint32]notify.Notice
	notified  chan uint32
	withdrawn chan uint32
	closed    chan []uint32 // the notices still shown when it closed
}

func newFakeNotifier() *fakeNotifier {
	return &fakeNotifier{shown: map[uint32]notify.Notice{}, notified: make(chan uint32, 16), withdrawn: make(chan uint32, 16), closed: make(chan []uint32, 1)}
}

func (f *fakeNotifier) Notify(_ context.Context, n notify.Notice) (uint32, error) {
	f.mu.Lock()
	f.next++
	id := f.next
	f.shown[id] = n
	f.mu.Unlock()
	f.notified <- id
	return id, nil
}

func (f *fakeNotifier) Withdraw(_ context.Context, id uint32) error {
	f.mu.Lock()
	delete(f.shown, id)
	f.mu.Unlock()
	f.withdrawn <- id
	return nil
}

// Close tells what was still shown, the first time.
func (f *fakeNotifier) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var left []uint32
	for id := range f.shown {
		left = append(left, id)
	}
	select {
	case f.closed <- left:
	default:
	}
	return nil
}

// waitWithdrawn waits until notification id is withdrawn.
func (f *fakeNotifier) waitWithdrawn(id uint32) {
	for got := range f.withdrawn {
		if got == id {
			return
		}
	}
}

// notifying starts a Desk whose notifications go to a fake, with at most
// one request window, so the next request waits in the tray menu.
func notifying(t *testing.T) (*harness, *fakeNotifier) {
	h := start(t, `{"mcpServers":{}}`)
	f := newFakeNotifier()
	h.ui(func() {
		h.d.notifier = f
		h.d.queue.max = 1
	})
	return h, f
}

// TestNotificationsGoAway asks two requests, the second waiting without a
// window, and checks that each way a request stops needing its
// notification withdraws it.
func TestNotificationsGoAway(t *testing.T) {
	tests := []struct {
		name string
		// end acts on the waiting request r, whose notification is id.
		end func(t *testing.T, h *harness, r *request, id uint32, cancel context.CancelCauseFunc)
		// opens: r has a window afterwards.
		opens bool
	}{
		{"clicked", func(t *testing.T, h *harness, r *request, id uint32, _ context.CancelCauseFunc) {
			h.ui(func() { h.d.clicked(id) })
		}, true},
		{"picked in the tray menu", func(t *testing.T, h *harness, r *request, id uint32, _ context.CancelCauseFunc) {
			trayItem(t, h, untrusted.Text(r.Server.Name).Line()+": "+r.Message.Headline(48)).Action()
		}, true},
		{"brought forward", func(t *testing.T, h *harness, r *request, id uint32, _ context.CancelCauseFunc) {
			h.ui(func() {
				first := h.d.queue.open[0]
				test.Tap(button(t, content(first), "Decline")) // r gets the window
			})
		}, true},
		{"stale", func(t *testing.T, h *harness, r *request, id uint32, cancel context.CancelCauseFunc) {
			cancel(errors.New("the server gave up"))
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, f := notifying(t)
			h.askForm(context.Background(), "first", "One?")
			<-f.notified
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			h.askForm(ctx, "second", "Two?")
			id := <-f.notified
			r := h.request(1)
			h.eventually("the notice to be kept", func() bool { return h.d.notices.get(id).r == r })
			if r.win != nil {
				t.Fatal("the second request has a window beyond the limit")
			}
			tt.end(t, h, r, id, cancel)
			f.waitWithdrawn(id)
			h.eventually("the notice to be forgotten", func() bool { return h.d.notices.get(id).r == nil })
			var opened bool
			h.ui(func() { opened = r.win != nil })
			if opened != tt.opens {
				t.Errorf("the request has a window: %v, want %v", opened, tt.opens)
			}
		})
	}
}

func TestNotificationWithdrawnWhenAnswered(t *testing.T) {
	h, f := notifying(t)
	got := h.askForm(context.Background(), "notes", "Who are you?")
	id := <-f.notified
	r := h.request(0)
	h.ui(func() { test.Tap(button(t, content(r), "Decline")) })
	<-got
	f.waitWithdrawn(id)
}

func TestNotificationsWithdrawnOnQuit(t *testing.T) {
	h, f := notifying(t)
	h.askForm(context.Background(), "a", "One?")
	h.askForm(context.Background(), "b", "Two?")
	a, b := <-f.notified, <-f.notified
	h.eventually("both notices kept", func() bool { return h.d.notices.get(a).r != nil && h.d.notices.get(b).r != nil })
	h.d.closeNotices()
	if left := <-f.closed; len(left) != 0 {
		t.Errorf("notices %v still shown when the connection closed", left)
	}
}

func TestNoNotificationWhileFocused(t *testing.T) {
	h, f := notifying(t)
	h.ui(func() { h.d.focused = true })
	h.askForm(context.Background(), "a", "One?")
	r := h.request(0)
	h.ui(func() {
		if r.notifying {
			t.Error("a notification was sent while one of our windows has focus")
		}
	})
	select {
	case id := <-f.notified:
		t.Errorf("notification %d shown", id)
	default:
	}
}

// TestClosedWindowGivesUpFocus: Fyne never tells that a closed window had
// focus, so without the Desk's own note the next request, arriving while
// the person works elsewhere, would not be notified.
func TestClosedWindowGivesUpFocus(t *testing.T) {
	h, f := notifying(t)
	h.ui(func() { h.d.focused = true })
	got := h.askForm(context.Background(), "a", "One?")
	r := h.request(0)
	h.ui(func() { test.Tap(button(t, content(r), "Decline")) })
	<-got
	h.eventually("the window to close", func() bool { return h.d.queue.len() == 0 })
	h.askForm(context.Background(), "b", "Two?")
	<-f.notified
}

// TestNotificationsCanBeTurnedOff: with the setting off, a request that
// arrives unseen gets its window or its place in the tray, no notice.
func TestNotificationsCanBeTurnedOff(t *testing.T) {
	for _, on := range []bool{true, false} {
		h, _ := notifying(t)
		h.ui(func() { h.d.settings.Notify = on })
		h.askForm(context.Background(), "first", "One?")
		r := h.request(0)
		var notifying bool
		h.ui(func() { notifying = r.notifying }) // set as it arrives
		if notifying != on {
			t.Errorf("notifications %v: the request notified %v", on, notifying)
		}
	}
}
