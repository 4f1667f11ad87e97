package core

import (
	"context"
	"fmt"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers"
)

// TrafficPrefs are the person's choices of what the traffic record keeps
// beside every message's facts.
type TrafficPrefs struct {
	// Capture is whose messages are kept themselves, redacted, in the
	// capture file (Options.CapturePath).
	Capture traffic.Scope `json:"capture"`
	// Redact are the person's own patterns, regular expressions, whose
	// matches a capture keeps out beside traffic.Redactor's rules.
	Redact []string `json:"redact,omitempty"`
}

// MaxRedactPatterns bounds the person's patterns: each is matched against
// every string of every message kept.
const MaxRedactPatterns = 64

// Check says what is wrong with p: too many names or patterns, or a
// pattern that does not compile.
func (p TrafficPrefs) Check() error {
	if err := p.Capture.Check(); err != nil {
		return err
	}
	if len(p.Redact) > MaxRedactPatterns {
		return fmt.Errorf("at most %d patterns to redact, not %d", MaxRedactPatterns, len(p.Redact))
	}
	_, err := traffic.NewRedactor(p.Redact)
	return err
}

// captureFlushWait bounds how long Close waits for the capture to write
// what it was handed.
const captureFlushWait = 2 * time.Second

// SetTrafficPrefs keeps the messages of those p names from now on, or
// stops; the patterns apply to what is kept from now on. Prefs that do
// not pass Check change nothing.
func (c *Core) SetTrafficPrefs(p TrafficPrefs) error {
	if err := p.Check(); err != nil {
		c.log.Warn("traffic settings refused", "err", err)
		return err
	}
	redact, _ := traffic.NewRedactor(p.Redact)
	c.mu.Lock()
	if c.capture == nil && !p.Capture.None() && c.opts.CapturePath != "" {
		// Its own context: Close lets it write what it holds after the
		// servers stopped.
		ctx, stop := context.WithCancel(context.WithoutCancel(c.ctx))
		c.capture, c.stopCapture = traffic.NewCapture(ctx, c.opts.CapturePath, traffic.DefaultCaptureLimits, redact, c.log), stop
	}
	capture := c.capture
	scope := p.Capture
	if capture == nil {
		scope = traffic.Scope{}
	}
	c.scope = scope
	var tell []func()
	for _, t := range c.captureTells {
		tell = append(tell, t)
	}
	c.mu.Unlock()
	if capture != nil {
		capture.Redact(redact)
	}
	c.traffic.Capture(capture, scope)
	for _, t := range tell {
		t() // never blocks: each bridge is told what holds for it, if it changed
	}
	return nil
}

// capturing says whether the core keeps the messages of bridged session b.
func (c *Core) capturing(b servers.Bridged) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.scope.Keeps(b.Server.Name, b.ID)
}

// onCaptureChange has changed called at each change of whose messages the
// core keeps (changed never blocks), until the returned func
// is called.
func (c *Core) onCaptureChange(changed func()) (stop func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.captureTells == nil {
		c.captureTells = map[int]func(){}
	}
	c.captureTellsN++
	n := c.captureTellsN
	c.captureTells[n] = changed
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.captureTells, n)
	}
}

// closeCapture writes what the capture holds, within captureFlushWait, and
// ends it.
func (c *Core) closeCapture() {
	c.mu.Lock()
	capture, stop := c.capture, c.stopCapture
	c.mu.Unlock()
	if capture == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), captureFlushWait)
	defer cancel()
	capture.Flush(ctx)
	stop()
}

// Traffic returns the entries of the traffic record numbered after after,
// oldest first; with wait, when there is none yet, it waits for the next
// until ctx ends.
func (c *Core) Traffic(ctx context.Context, after uint64, wait bool) ([]traffic.Entry, error) {
	if wait {
		return c.traffic.Wait(ctx, after)
	}
	list, _ := c.traffic.After(after)
	return list, nil
}

// sweepCapture removes the capture's files past their retention.
func (c *Core) sweepCapture() {
	if c.opts.CapturePath == "" {
		return
	}
	if err := traffic.Sweep(c.opts.CapturePath, traffic.DefaultCaptureLimits.Retention, c.now()); err != nil {
		c.log.Warn("traffic capture not swept", "err", err)
	}
}
