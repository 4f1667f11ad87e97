package link

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/tidwall/sjson"
)

// headSize is how much of an unreadable message a BadMessage keeps.
const headSize = 4 << 10

// Lines is a Link over newline-delimited streams, as stdio uses: r carries
// the peer's messages, w ours. Close closes w, which tells a stdio peer
// the conversation is over.
type Lines struct {
	br *bufio.Reader
	r  io.Reader

	mu     sync.Mutex // one message written at a time
	w      io.WriteCloser
	closed sync.Once
}

// NewLines returns a Link reading messages from r and writing them to w.
func NewLines(r io.Reader, w io.WriteCloser) *Lines {
	return &Lines{br: bufio.NewReaderSize(r, 64<<10), r: r, w: w}
}

func (l *Lines) Read() (Message, error) {
	for {
		line, size, env, err := l.readLine()
		if err != nil {
			return Message{}, err
		}
		line = bytes.TrimSpace(line)
		switch {
		case size > MaxMessage:
			bad := &BadMessage{Head: line, Size: size, Err: fmt.Errorf("%w (%d bytes)", ErrTooLarge, size)}
			env.fill(bad)
			return Message{}, bad
		case len(line) == 0:
			continue // blank lines separate nothing
		}
		m, err := Parse(line)
		if err != nil {
			return Message{}, readIDs(&BadMessage{Head: head(line), Size: size, Err: err})
		}
		return m, nil
	}
}

// readLine returns the next line without its newline, or, when it is
// over MaxMessage, its first headSize bytes, its full size and the
// envelope read from all of it. A last line without a newline counts;
// io.EOF comes after it.
func (l *Lines) readLine() ([]byte, int, *envelope, error) {
	var buf []byte
	var env *envelope
	size := 0
	for {
		chunk, err := l.br.ReadSlice('\n')
		size += len(chunk)
		switch {
		case size <= MaxMessage:
			buf = append(buf, chunk...)
		case env == nil:
			env = &envelope{}
			env.write(buf)
			env.write(chunk)
			buf = buf[:min(len(buf), headSize)]
		default:
			env.write(chunk)
		}
		switch err {
		case bufio.ErrBufferFull:
			continue
		case nil:
			return bytes.TrimSuffix(buf, []byte("\n")), size - 1, env, nil
		case io.EOF:
			if size > 0 {
				return buf, size, env, nil
			}
		}
		return nil, 0, nil, err
	}
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
	if err := ctx.Err(); err != nil {
		return err
	}
	raw := m.Raw
	if m.IsResponse() && m.ID == nil && m.Related != nil {
		if withID, err := sjson.SetRawBytes(raw, "id", m.Related); err == nil {
			raw = withID
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	buf := make([]byte, 0, len(raw)+1)
	buf = append(append(buf, raw...), '\n')
	_, err := l.w.Write(buf)
	return err
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
