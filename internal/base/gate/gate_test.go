package gate

import (
	"sync"
	"testing"
)

// TestCloseWaitsAndRefuses: Close returns only once admitted work has
// ended, and nothing is admitted after it, even when work is asked for
// from many goroutines at once (run with -race).
func TestCloseWaitsAndRefuses(t *testing.T) {
	var g Gate
	var mu sync.Mutex
	ran, closed := 0, false
	var askers sync.WaitGroup
	for range 50 {
		askers.Go(func() {
			g.Go(func() {
				mu.Lock()
				defer mu.Unlock()
				if closed {
					t.Error("work ran after Close returned")
				}
				ran++
			})
		})
	}
	g.Close()
	mu.Lock()
	closed = true
	mu.Unlock()
	askers.Wait()
	if g.Go(func() {}) || g.Enter() {
		t.Error("a shut gate admitted work")
	}
	if g.Shut() {
		t.Error("Shut reported shutting a gate already shut")
	}
	if !g.IsShut() {
		t.Error("IsShut is false after Close")
	}
}
