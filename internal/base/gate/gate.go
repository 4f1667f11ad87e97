// Package gate admits work until it is shut, and lets its owner wait for
// the work it admitted: what closes a resource (a history store, a
// connection's log, a window's widgets) shuts the gate first, so nothing
// starts on the resource after it, then waits for what already did.
package gate

import "sync"

// Gate admits work until Shut. The zero Gate is open.
type Gate struct {
	mu       sync.Mutex
	shut     bool
	admitted sync.WaitGroup
}

// Enter admits one piece of work unless the gate is shut, and reports
// whether it did; admitted work ends with Leave.
func (g *Gate) Enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shut {
		return false
	}
	g.admitted.Add(1)
	return true
}

// Leave ends a piece of work Enter admitted.
func (g *Gate) Leave() { g.admitted.Done() }

// Go runs f on a goroutine of its own unless the gate is shut, and
// reports whether it does.
func (g *Gate) Go(f func()) bool {
	if !g.Enter() {
		return false
	}
	go func() {
		defer g.Leave()
		f()
	}()
	return true
}

// Shut refuses all later work, and reports whether this call shut it.
func (g *Gate) Shut() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	first := !g.shut
	g.shut = true
	return first
}

// IsShut reports whether Shut was called.
func (g *Gate) IsShut() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.shut
}

// Wait waits for the work admitted so far. On an open gate, work asked
// for meanwhile is admitted after it; a shut gate is not held meanwhile,
// so that work under way may still ask IsShut.
func (g *Gate) Wait() {
	g.mu.Lock()
	if g.shut {
		g.mu.Unlock()
		g.admitted.Wait()
		return
	}
	defer g.mu.Unlock()
	g.admitted.Wait()
}

// Close shuts the gate and waits for the work it admitted.
func (g *Gate) Close() {
	g.Shut()
	g.Wait()
}
