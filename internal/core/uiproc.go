package core

import (
	"context"
	"io"
	"time"
)

// StartUI starts a windows' process and returns the core's end of its
// private connection, which no other process can reach; exited receives
// once when the process has ended, whether it attached or not.
type StartUI func(ctx context.Context) (conn io.ReadWriteCloser, exited <-chan error, err error)

// UI start back-off: a UI that cannot start, or dies soon after (no
// display), is tried again after a second, doubling up to a minute; one
// that ran for uiSettled resets it.
const (
	minUIBackoff = time.Second
	maxUIBackoff = time.Minute
	uiSettled    = 30 * time.Second
)

// quitWait bounds how long a quitting core waits for its windows' process
// to close its windows when told Quit, before it hangs up on it.
const quitWait = 2 * time.Second

// serveProcess serves a windows' process on conn until it exits; when the
// core quits meanwhile, the process is told so first, and given quitWait
// to go by itself.
func (c *Core) serveProcess(conn io.ReadWriteCloser, exited <-chan error) error {
	defer conn.Close()
	serving, stop := context.WithCancel(context.WithoutCancel(c.ctx))
	defer stop()
	go c.ServeWindows(serving, conn)
	select {
	case err := <-exited:
		return err
	case <-c.ctx.Done():
	}
	select {
	case <-exited:
	case <-time.After(quitWait):
	}
	return nil
}

// needUI starts a UI process when the person must see something (a
// pending request, a window they asked for) and none is attached or
// starting.
func (c *Core) needUI() {
	if c.opts.StartUI == nil || c.ctx.Err() != nil || c.quitting.Load() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.starting {
		return
	}
	c.starting = true
	go c.superviseUI()
}

// wanted reports whether a UI should run: something waits for the person,
// or is about to (startAhead), and no UI is attached.
func (c *Core) wanted() bool {
	c.mu.Lock()
	ahead := c.ahead
	c.mu.Unlock()
	return !c.feed.attached() && (ahead || len(c.pending.all()) > 0 || c.feed.waitingShows())
}

// startAhead starts a windows' process ahead of need when server, which
// has asked the person before, is about to be used: a host's session
// with it through the bridge began, or a script called one of its tools.
// Most of a first window's wait is the process's own start (Fyne, the
// fonts, GLFW), which then passes before the request comes. Unused, the
// process exits after its idle time, as any does; one that cannot start
// is not tried again for this.
func (c *Core) startAhead(server string) {
	if c.opts.StartUI == nil || c.feed.attached() {
		return
	}
	if c.historyOpened(context.Background()) != nil || c.history == nil {
		return
	}
	if asked, err := c.history.Asked(c.ctx, server); err != nil || !asked {
		return
	}
	c.mu.Lock()
	c.ahead = true
	c.mu.Unlock()
	c.log.Debug("windows' process wanted ahead of need", "server", server)
	c.needUI()
}

// superviseUI starts UI processes while one is wanted, one at a time, and
// no sooner than the back-off after one that did not last: a UI that
// dies at once (no display) is not restarted in a loop.
func (c *Core) superviseUI() {
	for c.ctx.Err() == nil && c.wanted() {
		c.mu.Lock()
		wait := c.uiNext.Sub(c.now())
		c.mu.Unlock()
		if wait > 0 {
			select {
			case <-time.After(wait):
			case <-c.ctx.Done():
				continue
			}
		}
		began := c.now()
		c.mu.Lock()
		attaches := c.attaches
		c.ahead = false // this start is the one wanted ahead
		c.mu.Unlock()
		conn, exited, err := c.opts.StartUI(c.ctx)
		if err == nil {
			err = c.serveProcess(conn, exited)
		}
		c.mu.Lock()
		attached := c.attaches != attaches
		c.mu.Unlock()
		if err != nil {
			c.log.Warn("the windows' process ended", "err", err)
			if !attached { // it could not open windows at all
				c.noticeWaiting(err)
			}
		}
		c.mu.Lock()
		if err == nil || c.now().Sub(began) >= uiSettled { // it exited when done, or lasted
			c.uiBackoff = 0
		} else {
			c.uiBackoff = min(max(2*c.uiBackoff, minUIBackoff), maxUIBackoff)
		}
		c.uiNext = c.now().Add(c.uiBackoff)
		c.mu.Unlock()
	}
	c.mu.Lock()
	c.starting = false
	c.mu.Unlock()
	// A request that came as this loop ended finds starting still set:
	// look once more.
	if c.ctx.Err() == nil && c.wanted() {
		c.needUI()
	}
}
