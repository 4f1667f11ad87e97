package link

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"time"

	"github.com/tidwall/sjson"

	"github.com/elicitdesk/elicitdesk/internal/base/lines"
)

// headSize is how much of an unreadable message a BadMessage keeps.
const headSize = lines.HeadSize

// Lines is a Link over newline-delimited streams, as stdio uses: r carries
// the peer's messages, w ours. Close closes w, which tells a stdio peer
// the conversation is over.
type Lines struct {
	lr  *lines.Reader
	r   io.Reader
	env *envelope // of the line being read, once over MaxMessage

	slot   chan struct{} // one message written at a time; a Write waits for it as long as its context lets it
	lw     *lines.Writer
	w      io.WriteCloser
	closed sync.Once

	// A Write whose context ends while the peer does not read (a server
	// that stopped reading its stdin) is cut short through w's write
	// deadline, where w has one (a pipe on Unix), cutGrace after: writing
	// is whether a Write is under way, so that a late cut cannot hit the
	// next one.
	cut     sync.Mutex
	writing bool
}

// cutGrace is how long a Write whose context ended may still take: one
// the peer is reading finishes, rather than ending the link with half a
// line sent; one the peer does not read ends then.
const cutGrace = time.Second

// deadliner is a stream whose blocked writes a deadline ends: *os.File
// (exec's pipes embed one) and net.Conn.
type deadliner interface{ SetWriteDeadline(time.Time) error }

// NewLines returns a Link reading messages from r and writing them to w.
// It writes messages of any size: what it is given to pass on came from
// reads bounded by MaxMessage, or from the bridge itself, and a message
// dropped would leave a peer waiting.
func NewLines(r io.Reader, w io.WriteCloser) *Lines {
	l := &Lines{lr: lines.NewReader(r, MaxMessage), r: r, lw: lines.NewWriter(w, math.MaxInt), w: w, slot: make(chan struct{}, 1)}
	l.lr.Over = func(p []byte) { // a long line's id may come after its params
		if l.env == nil {
			l.env = &envelope{}
		}
		l.env.write(p)
	}
	return l
}

// Read returns the next message. A stdio peer may leave out the newline
// after its last message, which counts.
func (l *Lines) Read() (Message, error) {
	l.env = nil
	line, err := l.lr.Read()
	var long *lines.TooLong
	switch {
	case errors.As(err, &long):
		bad := &BadMessage{Head: long.Head, Size: long.Size, Err: fmt.Errorf("%w (%d bytes)", ErrTooLarge, long.Size)}
		l.env.fill(bad)
		return Message{}, bad
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF):
		return Message{}, err
	}
	m, err := Parse(line)
	if err != nil {
		return Message{}, readIDs(&BadMessage{Head: head(line), Size: len(line), Err: err})
	}
	return m, nil
}

func head(b []byte) []byte {
	if len(b) > headSize {
		return b[:headSize]
	}
	return b
}

// Write writes m as one line. Over stdio only the id says which request
// an answer is for: an error a server left with a null id, which its HTTP
// stream tied to a request (Related), goes with that request's id, or the
// peer would wait for an answer it has been given.
func (l *Lines) Write(ctx context.Context, m Message) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	raw := m.Raw
	if m.IsResponse() && m.ID == nil && m.Related != nil {
		if withID, err := sjson.SetRawBytes(raw, "id", m.Related); err == nil {
			raw = withID
		}
	}
	select {
	case l.slot <- struct{}{}:
		defer func() { <-l.slot }()
	case <-ctx.Done(): // behind a write the peer does not read
		return context.Cause(ctx)
	}
	if d, ok := l.w.(deadliner); ok && ctx.Done() != nil {
		l.setWriting(d, true)
		stop := context.AfterFunc(ctx, func() {
			l.cut.Lock()
			defer l.cut.Unlock()
			if l.writing {
				d.SetWriteDeadline(time.Now().Add(cutGrace))
			}
		})
		defer func() {
			stop()
			l.setWriting(d, false)
		}()
	}
	_, err := l.lw.Write(raw)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		// Part of a line may have gone, which would garble every message
		// after it: the link is over.
		l.Close()
		return fmt.Errorf("the peer stopped reading: %w", context.Cause(ctx))
	}
	return err
}

// setWriting marks a Write under way, or over and its deadline cleared.
func (l *Lines) setWriting(d deadliner, on bool) {
	l.cut.Lock()
	defer l.cut.Unlock()
	l.writing = on
	if !on {
		d.SetWriteDeadline(time.Time{})
	}
}

// Close closes both streams; it does not wait for a Write blocked on a
// peer that stopped reading, which closing w ends.
func (l *Lines) Close() error {
	var err error
	l.closed.Do(func() {
		err = l.w.Close()
		if c, ok := l.r.(io.Closer); ok {
			c.Close()
		}
	})
	return err
}
