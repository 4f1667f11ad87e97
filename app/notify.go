package app

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
)

// notifier shows and withdraws the desktop's notifications; it tells the
// Desk of clicks through the callbacks it was made with.
type notifier interface {
	// Notify shows n and returns its id; 0 when it cannot be withdrawn.
	Notify(ctx context.Context, n notify.Notice) (uint32, error)
	Withdraw(ctx context.Context, id uint32) error
	// Close ends the connection; the Desk withdraws its notices first.
	Close() error
}

// appName is who the desktop says a notification is from.
const appName = "Elicit Desk"

// busTimeout bounds each call to the notification server, which may hang.
const busTimeout = 2 * time.Second

// notify tells the person a request arrived while they look elsewhere.
// The server is asked on a goroutine of its own, as it may be slow to
// answer.
func (d *Desk) notify(r *request) {
	if d.focused || !d.settings.Notify || d.notifier == nil || d.ctx.Err() != nil {
		return
	}
	r.notifying = true
	d.send(notification(r), notice{r: r}, func() {
		// Answered, gone stale or its window opened meanwhile.
		if !r.notifying || r.ended {
			d.withdraw(r)
		}
	})
}

// send shows n on a goroutine of its own, as the notification server may
// be slow to answer, and keeps it as x so that it can be withdrawn; then,
// on the UI goroutine, shown runs (nil: nothing).
func (d *Desk) send(n notify.Notice, x notice, shown func()) {
	d.noticing.Add(1)
	go func() {
		defer d.noticing.Done()
		// Not cut short by quitting: a notice shown must be known, so
		// that Close withdraws it.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(d.ctx), busTimeout)
		defer cancel()
		id, err := d.notifier.Notify(ctx, n)
		if err != nil {
			d.log.Warn("notification not shown", "err", err)
			return
		}
		if id == 0 {
			return // one that cannot be withdrawn
		}
		d.notices.add(x, id)
		if shown != nil {
			d.do(shown)
		}
	}()
}

// withdraw takes r's notification away, if it has one.
func (d *Desk) withdraw(r *request) {
	r.notifying = false
	id, ok := d.notices.take(r)
	if !ok {
		return
	}
	d.noticing.Add(1)
	go func() {
		defer d.noticing.Done()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(d.ctx), busTimeout)
		defer cancel()
		if err := d.notifier.Withdraw(ctx, id); err != nil {
			d.log.Warn("notification not withdrawn", "id", id, "err", err)
		}
	}()
}

// clicked opens the request whose notification the person clicked.
func (d *Desk) clicked(id uint32) {
	n := d.notices.get(id)
	switch {
	case n.r != nil:
		d.queue.promote(n.r)
		d.open(n.r) // withdraws the notification
	}
}

// closeNotices withdraws every notification still shown, then closes the
// connection to the notification server, for an app that quits.
func (d *Desk) closeNotices() {
	if d.notifier == nil {
		return
	}
	d.noticing.Wait()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(d.ctx), busTimeout)
	defer cancel()
	for _, id := range d.notices.drain() {
		if err := d.notifier.Withdraw(ctx, id); err != nil {
			d.log.Warn("notification not withdrawn", "id", id, "err", err)
		}
	}
	d.notifier.Close()
}

// notices are the notifications on screen, by request or server. The
// notifier's goroutines add to them and Close drains them after the UI has
// stopped, so they have a lock of their own.
type notices struct {
	mu   sync.Mutex
	byID map[uint32]notice
}

// notice is what a notification is about: a request. (That a server
// fell, the core tells.)
type notice struct {
	r *request
}

func (n *notices) add(x notice, id uint32) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.byID == nil {
		n.byID = map[uint32]notice{}
	}
	n.byID[id] = x
}

// get is what notification id is about; zero for none.
func (n *notices) get(id uint32) notice {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.byID[id]
}

// take forgets r's notification and returns its id.
func (n *notices) take(r *request) (uint32, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for id, x := range n.byID {
		if x.r == r {
			delete(n.byID, id)
			return id, true
		}
	}
	return 0, false
}

// forget drops notification id, which the desktop took away itself.
func (n *notices) forget(id uint32) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.byID, id)
}

// drain forgets every notification and returns their ids.
func (n *notices) drain() []uint32 {
	n.mu.Lock()
	defer n.mu.Unlock()
	ids := slices.Collect(maps.Keys(n.byID))
	clear(n.byID)
	return ids
}

// notification is what the desktop shows of r: who asks and the first
// words of the message, hidden characters made visible.
func notification(r *request) notify.Notice {
	return notify.Notice{Summary: untrusted.Text(r.Server.Name).Line() + " asks", Body: r.Message.Headline(120), Urgency: notify.Normal}
}

// showError shows a problem in a window of its own, since it may come from
// the tray with no window open.
func (d *Desk) showError(title, text string) {
	w := d.fyne.NewWindow(title + " — Elicit Desk")
	msg := widget.NewLabel(text)
	msg.Wrapping = fyne.TextWrapWord
	ok := widget.NewButton("OK", w.Close)
	ok.Importance = widget.HighImportance
	w.SetContent(container.NewPadded(container.NewBorder(nil, container.NewHBox(ok), widget.NewIcon(theme.ErrorIcon()), nil, msg)))
	d.screen().Show(w, fyne.NewSize(440, 160)) // preferred
}
