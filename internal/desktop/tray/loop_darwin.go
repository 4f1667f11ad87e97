//go:build darwin

package tray

import (
	"context"
	"sync"

	"fyne.io/systray"
)

// loop is AppKit's event loop, which runs on the main thread only: Run
// runs it there, through systray.Run, and the status item appears once it
// has started.
type loop struct {
	title string
	ready chan struct{} // closed once AppKit has started and takes calls

	mu      sync.Mutex
	started bool // AppKit took the status item; Quit ends its loop
	ended   bool // stop was called: Run must not start AppKit, or stop it at once
}

// start returns a channel closed once Run has started AppKit.
func (l *loop) start(_ context.Context, title string, _ []byte, _ func()) (<-chan struct{}, bool, error) {
	l.title = title
	l.ready = make(chan struct{})
	return l.ready, false, nil
}

// stop ends AppKit's loop, and so Run, now or as soon as it starts.
func (l *loop) stop() {
	l.mu.Lock()
	l.ended = true
	started := l.started
	l.mu.Unlock()
	if started {
		systray.Quit()
	}
}

// run runs AppKit until stop; the caller is the main goroutine, locked to
// the main thread by systray's init.
func (l *loop) run() {
	l.mu.Lock()
	ended := l.ended
	l.mu.Unlock()
	if ended {
		return
	}
	systray.Run(l.launched, nil)
}

// lost is never closed: the status item needs no connection that could
// end.
func (l *loop) lost() <-chan struct{} { return nil }

// launched is systray's onReady: AppKit has started and made the status
// item. It ends the loop at once when stop came first.
func (l *loop) launched() {
	l.mu.Lock()
	l.started = true
	ended := l.ended
	l.mu.Unlock()
	if ended {
		systray.Quit()
		return
	}
	systray.SetTooltip(l.title)
	close(l.ready)
}

// setIcon shows png: AppKit reads PNG.
func setIcon(png []byte) error {
	systray.SetIcon(png)
	return nil
}
