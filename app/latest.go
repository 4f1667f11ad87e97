package app

import "context"

// latest hands the newest of a value to the one goroutine that sends it to
// the core: a value not sent yet is superseded by a newer one, and what is
// sent goes in the order set. Set it from the UI goroutine only.
type latest[T any] chan T

func newLatest[T any]() latest[T] { return make(latest[T], 1) }

// set makes v the next value sent.
func (l latest[T]) set(v T) {
	select {
	case <-l: // not sent yet: superseded
	default:
	}
	l <- v
}

// sendEach sends each value set, one at a time, until ctx ends.
func (l latest[T]) sendEach(ctx context.Context, send func(T)) {
	for {
		select {
		case v := <-l:
			send(v)
		case <-ctx.Done():
			return
		}
	}
}
