package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// sseTap is an http.RoundTripper that takes the server's JSON-RPC requests
// out of every text/event-stream body before mcp-go reads it and hands their
// raw bytes to onRequest. Everything else passes unchanged; a removed event
// keeps its id and retry lines so that resuming the stream with
// Last-Event-ID still works, at the pace the server asked for.
type sseTap struct {
	base      http.RoundTripper
	onRequest func(raw json.RawMessage, size int)
}

func (t *sseTap) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return resp, err
	}
	resp.Body = &sseFilter{src: resp.Body, br: bufio.NewReader(resp.Body), onRequest: t.onRequest}
	return resp, nil
}

// sseFilter reads an event stream event by event, passing on all but the
// server's requests. It holds at most MaxMessage bytes of an event: past
// that, a request is read to its end without being kept and handed over
// as its head and size, to be refused; anything else, such as a tool's
// large result, streams on unbuffered.
type sseFilter struct {
	src       io.ReadCloser
	br        *bufio.Reader
	onRequest func(raw json.RawMessage, size int) // size > len(raw): raw is the head of a longer request
	out       bytes.Buffer

	event   []byte // the event read so far, while it is buffered
	size    int    // the event's length so far
	mode    eventMode
	head    json.RawMessage // of an oversized request: its data, cut at MaxMessage
	cursor  []byte          // of an oversized request: its id and retry lines
	midLine bool            // the last chunk read did not end a line
	err     error
}

// eventMode is what sseFilter does with the rest of an event.
type eventMode int

const (
	buffering eventMode = iota // within MaxMessage: kept whole
	passing                    // over MaxMessage, not a request: streamed on
	skipping                   // over MaxMessage, a request: counted, not kept
)

func (f *sseFilter) Close() error { return f.src.Close() }

func (f *sseFilter) Read(p []byte) (int, error) {
	for f.out.Len() == 0 && f.err == nil {
		chunk, err := f.br.ReadSlice('\n')
		f.take(chunk)
		if err != nil && err != bufio.ErrBufferFull {
			f.end()
			f.err = err
		}
	}
	if f.out.Len() > 0 {
		return f.out.Read(p)
	}
	return 0, f.err
}

// take handles the next chunk of the stream: a line or part of one.
func (f *sseFilter) take(chunk []byte) {
	if len(chunk) == 0 {
		return
	}
	lineStart := !f.midLine
	blank := lineStart && len(bytes.TrimRight(chunk, "\r\n")) == 0
	f.midLine = chunk[len(chunk)-1] != '\n'
	f.size += len(chunk)
	switch f.mode {
	case buffering:
		f.event = append(f.event, chunk...)
		if len(f.event) > MaxMessage {
			f.overflow()
		}
	case passing:
		f.out.Write(chunk)
	case skipping:
		if lineStart && isCursorLine(chunk) {
			f.cursor = append(f.cursor, chunk...)
		}
	}
	if blank {
		f.end()
	}
}

// overflow decides, from its first MaxMessage bytes, what to do with an
// event too long to keep.
func (f *sseFilter) overflow() {
	if raw := eventData(f.event); isRequest(raw) {
		f.mode, f.head, f.cursor = skipping, raw, cursorLines(f.event)
	} else {
		f.mode = passing
		f.out.Write(f.event)
	}
	f.event = nil // let the long event's buffer go
}

// end ends the event read so far: passes it on, or hands it over if it is
// a request.
func (f *sseFilter) end() {
	switch f.mode {
	case buffering:
		if len(f.event) == 0 {
			break
		}
		if raw := eventData(f.event); isRequest(raw) {
			f.out.Write(cursorLines(f.event))
			f.out.WriteString("\n")
			f.onRequest(raw, len(raw))
		} else {
			f.out.Write(f.event)
		}
	case skipping:
		f.out.Write(f.cursor)
		f.out.WriteString("\n")
		f.onRequest(f.head, f.size)
	}
	f.event, f.size, f.mode, f.head, f.cursor = f.event[:0], 0, buffering, nil, nil
}

// eventData is the data of an event: its data lines joined.
func eventData(event []byte) json.RawMessage {
	var data [][]byte
	for l := range bytes.Lines(event) {
		if v, ok := bytes.CutPrefix(bytes.TrimRight(l, "\r\n"), []byte("data:")); ok {
			data = append(data, bytes.TrimPrefix(v, []byte(" ")))
		}
	}
	return bytes.Join(data, []byte("\n"))
}

// cursorLines are the lines of an event that say where a resumed stream
// picks up and when: id and retry.
func cursorLines(event []byte) []byte {
	var lines []byte
	for l := range bytes.Lines(event) {
		if isCursorLine(l) {
			lines = append(lines, l...)
		}
	}
	return lines
}

// isCursorLine reports whether an event's line is an id or retry field.
func isCursorLine(l []byte) bool {
	return bytes.HasPrefix(l, []byte("id:")) || bytes.HasPrefix(l, []byte("retry:"))
}
