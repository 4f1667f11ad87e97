package rpc

import (
	"context"
	"sync"
)

// Turns keep requests in the order they were read while their handlers
// run on goroutines of their own, which the scheduler starts in any
// order: a burst of a server's elicitations must reach the person oldest
// first, not as the goroutines happen to run. Whoever reads the requests
// gives each a turn (Next); its handler waits for it where order matters
// (WaitTurn), and the turn passes on when the handler marks it arrived or
// returns. The zero Turns is ready; one goroutine, the reader, calls
// Next.
type Turns struct {
	last *turn // the turn given last, which the next waits for
}

// turn is one request's place in its Turns.
type turn struct {
	before <-chan struct{} // closed once the requests read before arrived; nil for the first
	done   chan struct{}   // closed once this one and those before it arrived
	once   sync.Once
}

// arrive marks t arrived. One that arrives out of its turn (its context
// ended while it waited) lets the next go on only once those before it
// arrived too.
func (t *turn) arrive() {
	t.once.Do(func() {
		if t.before == nil {
			close(t.done)
			return
		}
		select {
		case <-t.before:
			close(t.done)
		default:
			go func() { <-t.before; close(t.done) }()
		}
	})
}

// turnKey carries a request's turn; callKey the same turn, for the one
// call that passes the request on (InTurn).
type (
	turnKey struct{}
	callKey struct{}
)

// Next gives the request read now a turn after every one given before,
// carried by the context it returns. The handler must call arrived when
// it returns, at the latest, or the requests after it wait for ever.
func (ts *Turns) Next(ctx context.Context) (_ context.Context, arrived func()) {
	t := &turn{done: make(chan struct{})}
	if ts.last != nil {
		t.before = ts.last.done
	}
	ts.last = t
	return context.WithValue(ctx, turnKey{}, t), t.arrive
}

// WaitTurn waits until the request whose turn ctx carries is next, that
// is, until every request read before it arrived, or until ctx ends; it
// returns the function that marks it arrived, which lets the next go on.
// Without a turn in ctx, or once the turn passed, it returns at once.
func WaitTurn(ctx context.Context) (arrived func()) {
	t, _ := ctx.Value(turnKey{}).(*turn)
	return t.wait(ctx)
}

// InTurn is ctx for the one call that passes its request on, to another
// peer that keeps the order too (the bridge asking the core): Calls.Call
// writes that call in the request's turn, after those of the requests read
// before. Other calls made on the way (a connection's handshake) are not
// held back, for an earlier request may wait for them.
func InTurn(ctx context.Context) context.Context {
	t, ok := ctx.Value(turnKey{}).(*turn)
	if !ok {
		return ctx
	}
	return context.WithValue(ctx, callKey{}, t)
}

// waitCall is WaitTurn for a call InTurn marked.
func waitCall(ctx context.Context) (arrived func()) {
	t, _ := ctx.Value(callKey{}).(*turn)
	return t.wait(ctx)
}

// wait is WaitTurn for t, which may be nil (no turn).
func (t *turn) wait(ctx context.Context) (arrived func()) {
	if t == nil {
		return func() {}
	}
	if t.before != nil {
		select {
		case <-t.before:
		case <-ctx.Done():
		}
	}
	return t.arrive
}
