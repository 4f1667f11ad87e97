package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// sseTap is an http.RoundTripper that takes the server's JSON-RPC requests
// out of every text/event-stream body before mcp-go reads it and hands their
// raw bytes to onRequest. Everything else passes unchanged; a removed event
// keeps its id and retry lines so that resuming the stream with
// Last-Event-ID still works, at the pace the server asked for. Any other
// body ends in ErrAnswerTooLarge past link.MaxMessage.
type sseTap struct {
	base      http.RoundTripper
	onRequest func(raw json.RawMessage, size int)
	log       *slog.Logger
}

func (t *sseTap) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body = &boundedBody{ReadCloser: resp.Body, left: link.MaxMessage}
		return resp, nil
	}
	resp.Body = &sseFilter{src: resp.Body, br: bufio.NewReader(resp.Body), onRequest: t.onRequest, log: t.log}
	return resp, nil
}

// sseFilter reads an event stream event by event, passing on all but the
// server's requests. It holds at most link.MaxMessage bytes of an event's
// data (and eventSlack of its other lines): a longer event is read to its
// end for its envelope (see oversized) and its id and retry lines, keeping
// nothing else. A request in it is handed over as a stub and its size, to
// be refused; an answer is replaced by an error answer; anything else is
// dropped.
type sseFilter struct {
	src       io.ReadCloser
	br        *bufio.Reader
	onRequest func(raw json.RawMessage, size int) // size > len(raw): raw is the stub of a longer request
	log       *slog.Logger
	out       bytes.Buffer

	event    []byte     // the event read so far, while within the limits
	size     int        // the event's length so far
	data     int        // the length of its data so far
	cut      *oversized // the event's data, once over the limits
	lastID   []byte     // of a cut event: its last whole id line
	retry    []byte     // and retry line
	midLine  bool       // the last chunk read did not end a line
	dataLine bool       // the line being read is a data line
	hasData  bool       // the event has had a data line
	err      error
}

// eventSlack is how much of an event besides its data sseFilter holds: its
// event, id and retry lines, and the data lines' field names.
const eventSlack = 64 << 10

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
	sep, data := f.dataOf(chunk, lineStart)
	if sep {
		f.data++
	}
	f.data += len(data)
	switch {
	case f.cut != nil:
	case f.data > link.MaxMessage || len(f.event)+len(chunk) > link.MaxMessage+eventSlack:
		f.cut = &oversized{}
		f.cut.env.write(eventData(f.event))
		for l := range bytes.Lines(f.event) {
			f.keepCursor(l)
		}
		f.event = nil // let the long event's buffer go
	default:
		f.event = append(f.event, chunk...)
	}
	if f.cut != nil {
		if sep {
			f.cut.env.write([]byte("\n"))
		}
		f.cut.env.write(data)
		if lineStart {
			f.keepCursor(chunk)
		}
		if answer := f.cut.reply(false); answer != nil {
			f.writeData(answer)
		}
	}
	if blank {
		f.end()
	}
}

// dataOf is what a chunk adds to its event's data: the value of a data
// line, after a newline (sep) when another came before, without the
// line's end.
func (f *sseFilter) dataOf(chunk []byte, lineStart bool) (sep bool, data []byte) {
	if lineStart {
		value, ok := bytes.CutPrefix(chunk, []byte("data:"))
		if f.dataLine = ok; !ok {
			return false, nil
		}
		sep, f.hasData = f.hasData, true
		chunk = bytes.TrimPrefix(value, []byte(" "))
	}
	if !f.dataLine {
		return false, nil
	}
	return sep, bytes.TrimRight(chunk, "\r\n")
}

// keepCursor keeps a cut event's line if it is a whole id or retry line,
// the last of each.
func (f *sseFilter) keepCursor(line []byte) {
	switch {
	case line[len(line)-1] != '\n':
	case bytes.HasPrefix(line, []byte("id:")):
		f.lastID = append(f.lastID[:0], line...)
	case bytes.HasPrefix(line, []byte("retry:")):
		f.retry = append(f.retry[:0], line...)
	}
}

// writeData passes on an event holding msg.
func (f *sseFilter) writeData(msg []byte) {
	f.out.WriteString("data: ")
	f.out.Write(msg)
	f.out.WriteString("\n\n")
}

// end ends the event read so far: passes it on, or hands it over if it is
// a request.
func (f *sseFilter) end() {
	if f.cut != nil {
		f.endCut()
	} else if raw := eventData(f.event); isRequest(raw) {
		f.out.Write(cursorLines(f.event))
		f.out.WriteString("\n")
		f.onRequest(raw, len(raw))
	} else {
		f.out.Write(f.event)
	}
	f.event, f.size, f.data, f.cut, f.lastID, f.retry, f.dataLine, f.hasData = f.event[:0], 0, 0, nil, nil, nil, false, false
}

// endCut ends an event over the limits: its id and retry lines pass on,
// with the error answer if it is an answer whose error has yet to go; a
// request is handed over as its stub.
func (f *sseFilter) endCut() {
	f.out.Write(f.lastID)
	f.out.Write(f.retry)
	id, method, answer := f.cut.end(f.log, f.size)
	if answer != nil {
		f.writeData(answer)
		return
	}
	f.out.WriteString("\n")
	if method != "" {
		f.onRequest(bytes.TrimSuffix(stub(id, method), []byte("\n")), f.size)
	}
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
