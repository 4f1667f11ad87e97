package app

import "sync"

// writes runs the history's disk work off the UI goroutine, so that Close
// can wait for it. Work that comes once Close has begun (a request going
// stale as the app quits) is refused: the store is about to close.
type writes struct {
	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup
}

// Go runs f on a goroutine of its own unless Close has begun, and reports
// whether it does.
func (w *writes) Go(f func()) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	w.wg.Go(f)
	return true
}

// Close refuses more work and waits for the work under way.
func (w *writes) Close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.wg.Wait()
}
