package link

import (
	"context"
	"encoding/json"
	"errors"
)

// A Link is a conversation with one peer.
type Link interface {
	// Read returns the peer's next message, in the order the peer sent
	// them. It returns io.EOF once the peer has closed the link, and
	// another error when the link broke; a message that could not be read
	// is a *BadMessage, after which Read may be called again. Read is
	// called from one goroutine at a time.
	Read() (Message, error)
	// Write sends one message. It returns once the peer has it (over HTTP,
	// once the server has answered the POST), so messages written one
	// after the other arrive in that order. It is safe for concurrent use.
	Write(ctx context.Context, m Message) error
	// Close ends the conversation and makes a blocked Read return.
	Close() error
}

// BadMessage is a message a Link received and could not pass on: not JSON,
// or larger than MaxMessage. Head holds its first bytes, enough to find
// the id of a request that must be answered.
type BadMessage struct {
	Head []byte
	Size int // in bytes, at least len(Head)
	Err  error
	// ID and Method are the message's top-level id and method, as far as
	// they could be read: from the whole message when it was too large
	// (its id may come after its params), else from Head. ID is nil when
	// absent, null or unreadable; Method "" when absent.
	ID     json.RawMessage
	Method string
}

// IsRequest reports whether the bad message is a request: it has an id
// and a method, and its sender waits for an answer.
func (e *BadMessage) IsRequest() bool { return e.ID != nil && e.Method != "" }

func (e *BadMessage) Error() string { return e.Err.Error() }

// MaxMessage is the largest message a Link passes on, in bytes. A larger
// one is a *BadMessage: a tool's result of several megabytes passes, a
// runaway server's endless line does not exhaust memory.
const MaxMessage = 8 << 20

// ErrTooLarge is the Err of a BadMessage over MaxMessage.
var ErrTooLarge = errors.New("message larger than 8 MiB")
