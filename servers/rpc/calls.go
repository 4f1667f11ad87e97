package rpc

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// Calls are the requests one side of a link sent and waits to hear
// answered: each gets an id of its own, each answer reaches the call it
// answers, and a call given up tells the other side
// (notifications/cancelled). A Peer keeps its calls in one. A proxy,
// which passes the other messages on as they are, keeps in one the
// requests it sends itself (the bridge's, to a server and to a host).
// T is what the caller keeps with a call while it waits, for whoever
// reads the other side's messages to look up (About).
type Calls[T any] struct {
	l      link.Link
	life   context.Context // once it ends, calls fail with its cause and give up without telling
	prefix string          // ids are prefix and a count as a JSON string; bare numbers when ""

	mu      sync.Mutex
	count   int64
	waiting map[string]waitingCall[T] // by id key
}

type waitingCall[T any] struct {
	about T
	reply chan link.Message
}

// NewCalls returns the calls of one side of l, which live as long as
// life. Their ids start with prefix: a proxy picks one that the peers
// it passes messages between cannot guess, so that no id of theirs can
// be taken for one of its own.
func NewCalls[T any](life context.Context, l link.Link, prefix string) *Calls[T] {
	return &Calls[T]{l: l, life: life, prefix: prefix, waiting: map[string]waitingCall[T]{}}
}

// Call sends the request build makes with the id it is given, and waits
// for its answer, which it returns as it came. When ctx ends first, the
// other side is told with notifications/cancelled (unless the calls'
// life ended too), and Call returns ctx's cause. A call under InTurn's
// context is sent in its request's turn: after the calls of requests read
// before.
func (c *Calls[T]) Call(ctx context.Context, about T, build func(id json.RawMessage) (link.Message, error)) (link.Message, error) {
	arrived := waitCall(ctx)
	id, key, reply, err := c.send(ctx, about, build)
	arrived() // written, or not to be: the next request's call may go
	if err != nil {
		return link.Message{}, err
	}
	select {
	case got := <-reply:
		return got, nil
	case <-ctx.Done():
		c.forget(key)
		c.cancel(id, context.Cause(ctx))
		return link.Message{}, context.Cause(ctx)
	case <-c.life.Done():
		c.forget(key)
		return link.Message{}, c.closedErr()
	}
}

// send registers a call and writes its request.
func (c *Calls[T]) send(ctx context.Context, about T, build func(id json.RawMessage) (link.Message, error)) (json.RawMessage, string, chan link.Message, error) {
	c.mu.Lock()
	if c.life.Err() != nil {
		c.mu.Unlock()
		return nil, "", nil, c.closedErr()
	}
	c.count++
	id := c.id(c.count)
	key := string(id) // compact: its own IDKey
	reply := make(chan link.Message, 1)
	c.waiting[key] = waitingCall[T]{about, reply}
	c.mu.Unlock()
	m, err := build(id)
	if err != nil {
		c.forget(key)
		return nil, "", nil, err
	}
	if err := c.l.Write(ctx, m); err != nil {
		c.forget(key)
		if ctx.Err() != nil {
			return nil, "", nil, context.Cause(ctx)
		}
		return nil, "", nil, fmt.Errorf("sending %s: %w", m.Method, err)
	}
	return id, key, reply, nil
}

// id is the count-th id.
func (c *Calls[T]) id(count int64) json.RawMessage {
	if c.prefix == "" {
		return json.RawMessage(strconv.FormatInt(count, 10))
	}
	return json.RawMessage(strconv.Quote(c.prefix + strconv.FormatInt(count, 10)))
}

func (c *Calls[T]) forget(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.waiting, key)
}

// Answer hands m, a response, to the call it answers, and reports whether
// one of these calls waited for it.
func (c *Calls[T]) Answer(m link.Message) bool {
	key := m.Answers()
	c.mu.Lock()
	w, ok := c.waiting[key]
	delete(c.waiting, key)
	c.mu.Unlock()
	if ok {
		w.reply <- m
	}
	return ok
}

// About returns what the call with id key keeps, if it waits.
func (c *Calls[T]) About(key string) (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	w, ok := c.waiting[key]
	return w.about, ok
}

// cancel tells the other side that the call with id is no longer waited
// for.
func (c *Calls[T]) cancel(id json.RawMessage, cause error) {
	if c.life.Err() != nil {
		return
	}
	params := map[string]any{"requestId": id}
	if cause != nil {
		params["reason"] = cause.Error()
	}
	if m, err := notification("notifications/cancelled", params); err == nil {
		// A write that fails means the other side is going away, which
		// its reader notices.
		c.l.Write(context.WithoutCancel(c.life), m)
	}
}

// closedErr is the error of a call that the calls' end cut short: their
// life's cause, ErrClosed if it has none.
func (c *Calls[T]) closedErr() error {
	if cause := context.Cause(c.life); cause != nil {
		return cause
	}
	return ErrClosed
}
