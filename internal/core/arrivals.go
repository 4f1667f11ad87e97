package core

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
)

// burstGather is how long after a request arrives unseen the core waits
// for others before it notifies: a burst of requests is one notification.
const burstGather = time.Second

// arrivals tell the person of requests that arrive while no window of
// Elicit Desk's has the keyboard: one notification a burst, its requests
// in arrival order.
type arrivals struct {
	mu        sync.Mutex
	notify    bool       // the person wants notifications
	focused   bool       // one of the windows has the keyboard
	gathering []*waiting // the burst being gathered
	shown     map[uint32][]string
}

func (a *arrivals) setNotify(on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.notify = on
}

// Focused says whether one of the windows has the keyboard.
func (c *Core) Focused(on bool) {
	c.arrivals.mu.Lock()
	defer c.arrivals.mu.Unlock()
	c.arrivals.focused = on
}

// noticeArrival gathers w into the burst to notify, starting one.
func (c *Core) noticeArrival(w *waiting) {
	a := &c.arrivals
	a.mu.Lock()
	defer a.mu.Unlock()
	if c.opts.Notifier == nil || !a.notify || a.focused || w.ByPerson {
		return
	}
	a.gathering = append(a.gathering, w)
	if len(a.gathering) == 1 {
		time.AfterFunc(burstGather, c.noticeBurst)
	}
}

// noticeBurst shows the burst gathered, less what no longer waits, in
// the order the requests arrived: the pending list's, since requests
// that arrive together reach noticeArrival in any order.
func (c *Core) noticeBurst() {
	a := &c.arrivals
	a.mu.Lock()
	gathered := a.gathering
	a.gathering = nil
	a.mu.Unlock()
	burst := slices.DeleteFunc(c.pending.all(), func(w *waiting) bool { return !slices.Contains(gathered, w) })
	if len(burst) == 0 {
		return
	}
	ids := make([]string, len(burst))
	for i, w := range burst {
		ids[i] = w.ID
	}
	c.downs.mu.Lock()
	defer c.downs.mu.Unlock()
	c.showNotice(burstNotice(burst), func(id uint32) {
		a.mu.Lock()
		if a.shown == nil {
			a.shown = map[uint32][]string{}
		}
		a.shown[id] = ids
		a.mu.Unlock()
		c.withdrawAnswered() // in case all were answered while it went out
	})
}

// burstNotice is what the desktop shows of a burst: who asks and the
// first words of each message, in arrival order, hidden characters made
// visible.
func burstNotice(burst []*waiting) notify.Notice {
	name := func(w *waiting) string { return w.Server.Called() }
	if len(burst) == 1 {
		w := burst[0]
		return notify.Notice{Summary: name(w) + " asks", Body: w.e.Message.Headline(120), Urgency: notify.Normal}
	}
	var who []string
	for _, w := range burst {
		if !slices.Contains(who, name(w)) {
			who = append(who, name(w))
		}
	}
	summary := fmt.Sprintf("%d requests from %s", len(burst), who[0])
	switch len(who) {
	case 1:
	case 2:
		summary += " and " + who[1]
	default:
		summary += fmt.Sprintf(" and %d others", len(who)-1)
	}
	const lines = 3
	var body []string
	for _, w := range burst[:min(len(burst), lines)] {
		line := w.e.Message.Headline(80)
		if len(who) > 1 {
			line = name(w) + ": " + line
		}
		body = append(body, line)
	}
	if more := len(burst) - lines; more > 0 {
		body = append(body, fmt.Sprintf("…and %d more", more))
	}
	return notify.Notice{Summary: summary, Body: strings.Join(body, "\n"), Urgency: notify.Normal}
}

// burstClicked opens the oldest request still waiting of notification
// id's burst, and reports whether id was a burst's.
func (c *Core) burstClicked(id uint32) bool {
	c.arrivals.mu.Lock()
	ids, ok := c.arrivals.shown[id]
	delete(c.arrivals.shown, id)
	c.arrivals.mu.Unlock()
	for _, rid := range ids {
		if w, ok := c.pending.pick(rid); ok {
			c.open(w, ByPerson)
			c.needUI()
			break
		}
	}
	return ok
}

// withdrawAnswered takes away the notifications none of whose requests
// still waits.
func (c *Core) withdrawAnswered() {
	a := &c.arrivals
	a.mu.Lock()
	var done []uint32
	for id, ids := range a.shown {
		if !slices.ContainsFunc(ids, c.pending.waits) {
			done = append(done, id)
			delete(a.shown, id)
		}
	}
	a.mu.Unlock()
	if len(done) == 0 {
		return
	}
	c.downs.mu.Lock()
	defer c.downs.mu.Unlock()
	c.toNotifier(func(ctx context.Context, n Notifier) {
		for _, id := range done {
			if err := n.Withdraw(ctx, id); err != nil {
				c.log.Debug("notification not withdrawn", "id", id, "err", err)
			}
		}
	})
}
