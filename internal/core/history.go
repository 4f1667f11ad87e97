package core

import (
	"context"
	"errors"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/history"
)

// openHistory opens the history database. A damaged one never stops the
// core: the store keeps it aside, starts a fresh file and says so (Notice);
// when the file stays busy or even that fails, the core runs without a
// history and says that.
func (c *Core) openHistory() {
	defer close(c.opened)
	c.mu.Lock()
	limits := c.limits
	c.mu.Unlock()
	s, err := history.Open(c.opts.HistoryPath, c.log, history.Options{MaxBytes: limits.MaxBytes})
	if err != nil {
		c.log.Error("running without a history", "err", err)
		c.mu.Lock()
		c.notice = "Elicit Desk runs without a history this time: " + err.Error()
		c.mu.Unlock()
		return
	}
	c.history = s
	c.mu.Lock()
	c.notice = s.Notice()
	c.mu.Unlock()
	c.prune(limits.Retention, false)
}

// NotificationsProblem is why no notification can show, or "" when they
// can: asked of the notification server now, where the Notifier can say
// (one that starts after the app is used from then on).
func (c *Core) NotificationsProblem() string {
	if c.opts.Notifier == nil {
		return c.opts.NoNotifications
	}
	if n, ok := c.opts.Notifier.(interface{ Check(context.Context) error }); ok {
		ctx, cancel := context.WithTimeout(c.ctx, busTimeout)
		defer cancel()
		if n.Check(ctx) != nil {
			return "None can show now: no notification server runs on this desktop. One that starts later is used."
		}
	}
	return ""
}

// historyOpened waits until the history has been opened (or found not
// to open: c.history stays nil), ctx ends or the core quits.
func (c *Core) historyOpened(ctx context.Context) error {
	select {
	case <-c.opened:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-c.ctx.Done():
		return errQuitting
	}
}

// HistoryNotice is what opening the history had to say, "" when all went
// well, the first time it is asked: one UI shows it, once.
func (c *Core) HistoryNotice() string {
	if c.historyOpened(context.Background()) != nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.notice
	c.notice = ""
	return n
}

// SetHistoryLimits applies the person's new retention and size cap now,
// not at the next daily prune. Limits outside the Settings window's
// bounds (history.Limits.Check) are refused and change nothing: a call
// from the windows must not be able to empty the history.
func (c *Core) SetHistoryLimits(ctx context.Context, l HistoryLimits) error {
	if err := l.Check(); err != nil {
		c.log.Warn("history limits refused", "retention", l.Retention, "maxBytes", l.MaxBytes, "err", err)
		return err
	}
	c.mu.Lock()
	was := c.limits
	c.limits = l
	c.mu.Unlock()
	if err := c.historyOpened(ctx); err != nil {
		return err
	}
	if c.history == nil {
		return nil
	}
	c.history.SetMaxBytes(l.MaxBytes)
	c.prune(l.Retention, l.MaxBytes < was.MaxBytes)
	return nil
}

// ClearHistory deletes every entry, for the History window's Clear: the
// core is the history's one writer, so the windows ask it. The windows are
// told HistoryChanged once it is done.
func (c *Core) ClearHistory(ctx context.Context) error {
	if err := c.historyOpened(ctx); err != nil {
		return err
	}
	if c.history == nil {
		return errNoHistory
	}
	if !c.writes.Enter() { // Close waits for it before it closes the store
		return errQuitting
	}
	defer c.writes.Leave()
	if err := c.history.Clear(ctx); err != nil {
		c.log.Error("history not cleared", "err", err)
		return err
	}
	c.log.Info("history cleared")
	c.feed.push(event{history: true})
	return nil
}

// prune forgets what is older than retention and, when toSize, what the
// size cap no longer holds.
func (c *Core) prune(retention time.Duration, toSize bool) {
	before := c.now().Add(-retention)
	c.writes.Go(func() {
		ctx := context.WithoutCancel(c.ctx)
		if n, err := c.history.Prune(ctx, before); err != nil {
			c.log.Error("history not pruned", "err", err)
		} else if n > 0 {
			c.log.Info("history pruned", "entries", n)
			c.feed.push(event{history: true})
		}
		if !toSize {
			return
		}
		if n, err := c.history.PruneToMaxBytes(ctx); err != nil {
			c.log.Error("history not pruned to its size", "err", err)
		} else if n > 0 {
			c.feed.push(event{history: true})
		}
	})
}

// daily prunes the history and sweeps the traffic capture once a day,
// for a core that runs from login for weeks; the capture's files past
// their retention go even while the capture is off.
func (c *Core) daily() {
	t := time.NewTicker(24 * time.Hour)
	defer t.Stop()
	for {
		c.sweepCapture()
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
			if c.history != nil {
				c.mu.Lock()
				retention := c.limits.Retention
				c.mu.Unlock()
				c.prune(retention, false)
			}
		}
	}
}

// record keeps an entry in the history without holding anyone up.
func (c *Core) record(e history.Entry) {
	if err := c.keep(e); errors.Is(err, errQuitting) {
		c.log.Warn("history not written: Elicit Desk is quitting", "server", e.Server.Name, "outcome", e.Outcome)
	}
}

// errNoHistory is why the core takes no entry: the history could not be
// opened.
var errNoHistory = errors.New("Elicit Desk runs without a history")

// keep has e written to the history after it returns; an error says it
// will not be: there is no history, or the core is quitting.
func (c *Core) keep(e history.Entry) error {
	if err := c.historyOpened(context.Background()); err != nil {
		return err
	}
	if c.history == nil {
		return errNoHistory
	}
	e = history.Shorten(e) // what waits for the disk is small
	if !c.writes.Go(func() {
		if _, err := c.history.Add(context.WithoutCancel(c.ctx), e); err != nil {
			c.log.Error("history not written", "err", err)
			return
		}
		c.feed.push(event{history: true})
	}) {
		return errQuitting
	}
	return nil
}

// Unshown keeps e, an elicitation of a bridged server that no window could
// show, in the history: while the core runs, it alone writes entries. It
// returns once the write is queued; an error says e was not taken, and the
// bridge keeps it itself.
func (c *Core) Unshown(ctx context.Context, e history.Entry) error {
	if err := c.historyOpened(ctx); err != nil { // the endpoint serves before Start has opened the history
		return err
	}
	return c.keep(e)
}
