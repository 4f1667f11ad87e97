package link

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"time"
)

// An event is one Server-Sent Event: its id, if it set one, its name and
// its data. Data holds at most MaxMessage bytes; Size counts them all, so
// Size > len(Data) marks an event too large to pass on.
type event struct {
	ID    string
	HasID bool
	Name  string
	Data  []byte
	Size  int
	Retry time.Duration // 0 unless the event set one
	env   *envelope     // reads the data past MaxMessage for its id
}

// eventReader reads a text/event-stream body event by event without ever
// holding more than MaxMessage bytes of one.
type eventReader struct {
	br *bufio.Reader
}

func newEventReader(r io.Reader) *eventReader {
	return &eventReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next event, including events with an id and no data
// (servers send them to prime resumption). At the end of the stream it
// returns io.EOF; an event cut off by the end is dropped, as SSE says.
func (r *eventReader) next() (event, error) {
	var ev event
	seen := false
	for {
		line, err := r.line(&ev)
		if err != nil {
			return event{}, err
		}
		if line == nil { // a data line, already taken
			seen = true
			continue
		}
		if len(line) == 0 {
			if seen {
				return ev, nil
			}
			continue
		}
		if line[0] == ':' {
			continue // a comment, such as a keep-alive
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(name) {
		case "id":
			if !bytes.Contains(value, []byte{0}) {
				ev.ID, ev.HasID, seen = string(value), true, true
			}
		case "event":
			ev.Name, seen = string(value), true
		case "retry":
			if ms, err := strconv.Atoi(string(value)); err == nil && ms >= 0 {
				ev.Retry = time.Duration(ms) * time.Millisecond
			}
		}
	}
}

// line reads one line without its end. A data line it appends to ev's
// data itself, bounded, and returns nil; other lines it returns, cut at
// headSize (no other field needs more).
func (r *eventReader) line(ev *event) ([]byte, error) {
	var buf []byte
	first, isData := true, false
	for {
		chunk, err := r.br.ReadSlice('\n')
		if first && len(chunk) > 0 {
			first = false
			if rest, ok := bytes.CutPrefix(chunk, []byte("data")); ok && (len(rest) == 0 || rest[0] == ':' || rest[0] == '\n' || rest[0] == '\r') {
				isData = true
				if ev.Size > 0 || len(ev.Data) > 0 {
					ev.add([]byte("\n"))
				}
				rest = bytes.TrimPrefix(rest, []byte(":"))
				chunk = bytes.TrimPrefix(rest, []byte(" "))
			}
		}
		if err == nil || err == bufio.ErrBufferFull {
			if err == nil {
				chunk = bytes.TrimSuffix(bytes.TrimSuffix(chunk, []byte("\n")), []byte("\r"))
			}
			if isData {
				ev.add(chunk)
			} else if len(buf) < headSize {
				buf = append(buf, chunk...)
			}
			if err == nil {
				if isData {
					return nil, nil
				}
				if buf == nil {
					buf = []byte{}
				}
				return buf, nil
			}
			continue
		}
		if err == io.EOF && len(chunk) == 0 && first {
			return nil, io.EOF
		}
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
}

// add appends b to the event's data, keeping at most MaxMessage bytes.
func (ev *event) add(b []byte) {
	ev.Size += len(b)
	if room := MaxMessage - len(ev.Data); room > 0 {
		ev.Data = append(ev.Data, b[:min(room, len(b))]...)
		b = b[min(room, len(b)):]
	}
	if ev.Size > MaxMessage {
		if ev.env == nil {
			ev.env = &envelope{}
			ev.env.write(ev.Data)
		}
		ev.env.write(b)
	}
}

// message reads the event's data as a message; a *BadMessage if it is too
// large or not a JSON-RPC message.
func (ev event) message() (Message, error) {
	if ev.Size > MaxMessage {
		bad := &BadMessage{Head: head(ev.Data), Size: ev.Size, Err: fmt.Errorf("%w (%d bytes)", ErrTooLarge, ev.Size)}
		ev.env.fill(bad)
		return Message{}, bad
	}
	m, err := Parse(bytes.TrimSpace(ev.Data))
	if err != nil {
		return Message{}, readIDs(&BadMessage{Head: head(ev.Data), Size: ev.Size, Err: err})
	}
	return m, nil
}
