// Package lines frames messages one per line, as MCP's stdio transport
// and the app's private endpoint do. Every read is bounded: a Reader never
// holds more than its limit of one line, however long the peer makes it,
// and a Writer refuses what a Reader with the same limit would.
package lines

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// HeadSize is how much of a line over the limit a TooLong keeps: enough
// to read the id of a JSON-RPC request and answer it.
const HeadSize = 4 << 10

// TooLong is the error of a line over the limit.
type TooLong struct {
	Head []byte // the line's first bytes, at most HeadSize
	Size int    // the line's length, newline excluded
	Max  int    // the limit
}

func (e *TooLong) Error() string {
	return fmt.Sprintf("a message of %d bytes, over the limit of %d", e.Size, e.Max)
}

// Reader reads lines of at most a limit.
type Reader struct {
	br  *bufio.Reader
	max int
	// Over, when set, is given every byte of a line over the limit, in
	// order, as it is read (the newline too; a line of just the limit and
	// its newline is given too): the line is not kept, but
	// what the caller must know of it, such as a JSON-RPC message's id
	// wherever it stands, can be read on the way.
	Over func(p []byte)
}

// NewReader returns a Reader of r's lines of at most max bytes each,
// newline excluded.
func NewReader(r io.Reader, max int) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, readSize), max: max}
}

// readSize is how much a Reader reads at a time. A line longer than it
// is read in pieces; most messages are shorter, and a connection keeps
// its buffer all day: 64 kB made 640 kB of the core's heap at ten idle
// servers, to read a megabyte half a millisecond sooner
// (BenchmarkReadLongLine).
const readSize = 4 << 10

// Read returns the next line that is not blank, without the white space
// around it (so CRLF ends a line too); the slice is the caller's. A line
// over the limit is read to its end, keeping only its head, and returned
// as a *TooLong: the next Read goes on after it. A last line without a
// newline is returned with io.ErrUnexpectedEOF, as a stdio peer may leave
// the newline out while a socket cut mid-message should not be read; the
// Read after it returns io.EOF.
func (r *Reader) Read() ([]byte, error) {
	for {
		line, size, err := r.line()
		if err != nil && !(errors.Is(err, io.ErrUnexpectedEOF) && size > 0) {
			return nil, err
		}
		if size > r.max {
			return nil, &TooLong{Head: bytes.TrimSpace(line[:min(len(line), HeadSize)]), Size: size, Max: r.max}
		}
		if line = bytes.TrimSpace(line); len(line) > 0 || err != nil {
			return line, err
		}
	}
}

// line reads one line without its newline: all of it, or its first
// HeadSize bytes when it is over the limit. size is its full length. A
// last line without a newline ends with io.ErrUnexpectedEOF; a blank one
// is io.EOF.
func (r *Reader) line() (line []byte, size int, err error) {
	for {
		chunk, err := r.br.ReadSlice('\n')
		size += len(chunk)
		if r.Over != nil && size > r.max { // may be a line of max and its newline: Over sees it, harmlessly
			if size-len(chunk) <= r.max { // the line just went over: what came before too
				r.Over(line)
			}
			r.Over(chunk)
		}
		switch {
		case size <= r.max+1: // the newline is not counted
			line = append(line, chunk...)
		case len(line) < HeadSize:
			line = append(line, chunk[:min(len(chunk), HeadSize-len(line))]...)
		case len(line) > HeadSize:
			line = line[:HeadSize]
		}
		switch {
		case err == nil:
			return bytes.TrimSuffix(line, []byte("\n")), size - 1, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(bytes.TrimSpace(line)) > 0:
			return line, size, io.ErrUnexpectedEOF
		}
		return nil, 0, err
	}
}

// Writer writes messages one per line. It is not safe for concurrent use:
// its callers write one message at a time, under a lock of their own that
// also covers what they do around a write (a deadline).
type Writer struct {
	w   io.Writer
	max int
}

// NewWriter returns a Writer to w of messages of at most max bytes each.
func NewWriter(w io.Writer, max int) *Writer { return &Writer{w: w, max: max} }

// Write writes msg and a newline in one Write, so a peer reads either the
// whole line or, if the write fails midway, a cut that ends the stream: n
// says how many bytes went out, 0 when the stream is as it was. A msg
// over the limit is refused with a *TooLong before anything is written,
// as is one holding a newline, which would read as two.
func (w *Writer) Write(msg []byte) (n int, err error) {
	if len(msg) > w.max {
		return 0, &TooLong{Head: msg[:min(len(msg), HeadSize)], Size: len(msg), Max: w.max}
	}
	if bytes.IndexByte(msg, '\n') >= 0 {
		return 0, errors.New("a message holding a newline, which would read as two")
	}
	buf := make([]byte, 0, len(msg)+1)
	return w.w.Write(append(append(buf, msg...), '\n'))
}
