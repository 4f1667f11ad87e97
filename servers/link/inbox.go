package link

import (
	"context"
	"io"
	"sync"
)

// inbox hands the messages a Link's goroutines receive to its Read, in the
// order each goroutine puts them. It holds a bounded number; a goroutine
// putting into a full inbox waits for Read, so a host that does not read
// slows the server down rather than growing memory.
type inbox struct {
	ch chan item

	once   sync.Once
	done   chan struct{} // closed by end or close
	err    error         // what Read returns once done and drained
	closed bool          // close, not end: Read stops at once
}

type item struct {
	m   Message
	err error
}

func newInbox() *inbox {
	return &inbox{ch: make(chan item, 64), done: make(chan struct{})}
}

// put queues a message or a *BadMessage for Read. It reports false when it
// could not: the inbox is done or ctx ended.
func (b *inbox) put(ctx context.Context, m Message, err error) bool {
	select {
	case <-b.done:
		return false
	default:
	}
	select {
	case b.ch <- item{m, err}:
		return true
	case <-b.done:
		return false
	case <-ctx.Done():
		return false
	}
}

// end makes Read return err once it has read what was queued.
func (b *inbox) end(err error) {
	b.once.Do(func() {
		b.err = err
		close(b.done)
	})
}

// close makes Read return io.EOF at once, dropping what was queued.
func (b *inbox) close() {
	b.once.Do(func() {
		b.err, b.closed = io.EOF, true
		close(b.done)
	})
}

func (b *inbox) read() (Message, error) {
	select {
	case <-b.done:
		return b.drained()
	case it := <-b.ch:
		return it.m, it.err
	}
}

// drained is read's answer once the inbox is done.
func (b *inbox) drained() (Message, error) {
	if !b.closed {
		select {
		case it := <-b.ch:
			return it.m, it.err
		default:
		}
	}
	return Message{}, b.err
}
