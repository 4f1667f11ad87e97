package core

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
	"github.com/elicitdesk/elicitdesk/servers"
)

// Notifier shows the desktop's notifications (internal/desktop/notify on a
// session bus of its own); a click on one reaches the core's NoticeClicked.
type Notifier interface {
	// Notify shows n and returns its id; 0 when it cannot be withdrawn.
	Notify(ctx context.Context, n notify.Notice) (uint32, error)
	Withdraw(ctx context.Context, id uint32) error
	Close() error
}

// windowsNotifier shows the core's notifications through the windows,
// where the core has no notification server of its own: they cannot be
// withdrawn, and a click only brings the windows forward.
type windowsNotifier struct{ c *Core }

func (n windowsNotifier) Notify(_ context.Context, x notify.Notice) (uint32, error) {
	n.c.feed.push(event{notice: &x})
	n.c.needUI()
	return 0, nil
}

func (windowsNotifier) Withdraw(context.Context, uint32) error { return nil }
func (windowsNotifier) Close() error                           { return nil }

// busTimeout bounds each call to the notification server, which may hang.
const busTimeout = 2 * time.Second

// downQuiet is how long after telling of a server's failure its next one
// goes untold, so that a server that flaps is one notification.
const downQuiet = 15 * time.Minute

// downNotices tell the person, once, that a server that was ready failed:
// the core runs when no window does.
type downNotices struct {
	mu     sync.Mutex
	watch  downWatch
	byID   map[uint32]string // the notifications shown, by the server each is about
	sends  sync.WaitGroup
	closed bool
	// waitingTold: the person was told that requests wait for windows
	// that cannot open, since a UI last attached.
	waitingTold bool
}

// noticeDown tells the person that s, a ready server, failed, and why; a
// click opens the Servers window at that server.
func (c *Core) noticeDown(s servers.Status) {
	c.downs.mu.Lock()
	defer c.downs.mu.Unlock()
	if !c.downs.watch.fell(s, c.now()) {
		return
	}
	c.showNotice(downNotification(s), func(id uint32) {
		c.downs.mu.Lock()
		defer c.downs.mu.Unlock()
		if c.downs.byID == nil {
			c.downs.byID = map[uint32]string{}
		}
		c.downs.byID[id] = s.Name
	})
}

// toNotifier runs f with the notifier on a goroutine of its own, bounded
// by busTimeout, as the notification server may be slow to answer; not
// once the notices are closed, nor without a notifier. c.downs.mu is held.
func (c *Core) toNotifier(f func(ctx context.Context, n Notifier)) {
	n := c.opts.Notifier
	if n == nil || c.downs.closed {
		return
	}
	c.downs.sends.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), busTimeout)
		defer cancel()
		f(ctx, n)
	})
}

// showNotice shows x, then tells shown its id when it has one (one that can
// be withdrawn and clicked). c.downs.mu is held.
func (c *Core) showNotice(x notify.Notice, shown func(id uint32)) {
	c.toNotifier(func(ctx context.Context, n Notifier) {
		id, err := n.Notify(ctx, x)
		if err != nil {
			c.log.Warn("notification not shown", "err", err)
			return
		}
		if id != 0 && shown != nil {
			shown(id)
		}
	})
}

// noticeWaiting tells the person, once until windows open again, that
// requests wait because the windows' process could not run (why: err),
// as when the display is gone: they stay pending.
func (c *Core) noticeWaiting(err error) {
	waiting := len(c.pending.all())
	c.downs.mu.Lock()
	defer c.downs.mu.Unlock()
	if c.opts.Notifier == nil || waiting == 0 || c.downs.closed || c.downs.waitingTold {
		return
	}
	c.downs.waitingTold = true
	summary := fmt.Sprintf("%d requests wait", waiting)
	if waiting == 1 {
		summary = "1 request waits"
	}
	body := fmt.Sprintf("Elicit Desk cannot open its windows (%v). The requests stay until it can.", err)
	c.showNotice(notify.Notice{Summary: summary, Body: body, Urgency: notify.Normal}, nil)
}

// windowsOpen: a UI attached; the next time windows cannot open is told
// again.
func (c *Core) windowsOpen() {
	c.mu.Lock()
	c.attaches++
	c.mu.Unlock()
	c.downs.mu.Lock()
	defer c.downs.mu.Unlock()
	c.downs.waitingTold = false
}

// NoticeClicked opens what the notification the person clicked is about:
// the oldest request of its burst still waiting, or the Servers window at
// the server that fell.
func (c *Core) NoticeClicked(id uint32) {
	if c.burstClicked(id) {
		return
	}
	c.downs.mu.Lock()
	server, ok := c.downs.byID[id]
	delete(c.downs.byID, id)
	c.downs.mu.Unlock()
	if ok {
		c.Show(Show{Window: WindowServers, Server: server})
	}
}

// closeNotices waits for the notifications under way and ends the
// connection to the notification server.
func (c *Core) closeNotices() {
	c.downs.mu.Lock()
	c.downs.closed = true
	c.downs.mu.Unlock()
	c.downs.sends.Wait()
	if c.opts.Notifier != nil {
		c.opts.Notifier.Close()
	}
}

// downWatch decides which servers' failures are worth a notification: a
// ready server that failed, once, and no more often than downQuiet. A
// server that never connected is not told (the tray and the Servers
// window show it), nor are its retries.
type downWatch struct {
	ready map[string]bool      // ready at its last status
	told  map[string]time.Time // when its last failure was told
}

// fell reports whether s, a server's new status at now, is a failure to
// tell the person of.
func (w *downWatch) fell(s servers.Status, now time.Time) bool {
	if w.ready == nil {
		w.ready, w.told = map[string]bool{}, map[string]time.Time{}
	}
	was := w.ready[s.Name]
	w.ready[s.Name] = s.State == servers.StateReady
	if !was || !CannotConnect(s) {
		return false
	}
	if last, ok := w.told[s.Name]; ok && now.Sub(last) < downQuiet {
		return false
	}
	w.told[s.Name] = now
	return true
}

// downNotification says which server cannot connect and why, in plain words.
func downNotification(s servers.Status) notify.Notice {
	body := "Elicit Desk tries again by itself. Click to see the server."
	if s.State == servers.StateNeedsSignIn {
		body = "It needs you to sign in again. Click to see the server."
	} else if s.Err != nil {
		body = servers.Explain(s.Err, s.Stderr).Summary // safe to show
	}
	return notify.Notice{Summary: untrusted.Text(s.Name).Line() + " can't connect", Body: body, Urgency: notify.Normal}
}
