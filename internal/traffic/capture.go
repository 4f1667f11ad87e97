package traffic

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// A Capture keeps the bodies of the messages it is given, redacted, in a
// file of JSON Lines (CaptureLine) that only the person can read. It
// writes on a goroutine of its own: a slow, full or vanished disk costs
// the sessions nothing, and a body that cannot be written is dropped and
// counted, never waited for.
//
// The file stays within its limits by turning over: when the file reaches
// half of MaxBytes, or its first line half of Retention, it becomes the
// old file (its path with ".1" added, replacing the previous old one),
// and a file older than Retention is removed.
type Capture struct {
	path   string
	limits CaptureLimits
	redact atomic.Pointer[Redactor]
	log    *slog.Logger
	now    func() time.Time

	queue   chan kept
	queued  atomic.Int64 // bytes of the bodies in queue
	dropped atomic.Int64 // bodies not written: over the queue's bounds, or a failed write

	mu     sync.Mutex
	status CaptureStatus // the writer's, as of its last write
}

// CaptureLimits bound what a capture keeps.
type CaptureLimits struct {
	MaxBytes  int64         // the file and the old one together, at most
	Retention time.Duration // a body is kept at least about half of this, at most this
	MaxBody   int           // of one body's redacted text; beyond it, its start is kept as a string
}

// DefaultCaptureLimits: 64 MiB, a week, 1 MiB a message.
var DefaultCaptureLimits = CaptureLimits{MaxBytes: 64 << 20, Retention: 7 * 24 * time.Hour, MaxBody: 1 << 20}

// CaptureStatus is how a capture stands, for the person.
type CaptureStatus struct {
	Written int64  `json:"written"`         // bodies written
	Dropped int64  `json:"dropped"`         // bodies lost: too many at once, or a failed write
	Error   string `json:"error,omitempty"` // the last write's error, until one succeeds
}

// CaptureLine is one line of a capture file: an entry and its message,
// redacted.
type CaptureLine struct {
	Entry
	// Header is, for a message that came in an HTTP response, that
	// response's headers, redacted (Redactor.RedactHeader).
	Header http.Header     `json:"header,omitempty"`
	Body   json.RawMessage `json:"body"`
	// Cut: the redacted message was longer than MaxBody; Body is a JSON
	// string of its start.
	Cut bool `json:"cut,omitempty"`
}

// JSON is l as one line of JSON: the entry with its message where the
// capture kept it, else the entry's facts alone (no "body": null).
func (l CaptureLine) JSON() []byte {
	var b []byte
	if l.Body != nil {
		b, _ = json.Marshal(l)
	} else {
		b, _ = json.Marshal(l.Entry)
	}
	return b
}

// DefaultCapturePath is where the app keeps its capture: a state file,
// not data the person would back up.
func DefaultCapturePath(stateHome string) string {
	return filepath.Join(stateHome, "elicitdesk", "traffic.jsonl")
}

// How much a capture holds in memory at most, waiting for the disk.
const (
	captureQueue      = 4096     // messages
	captureQueueBytes = 32 << 20 // of their bodies
)

// kept is a message handed to the writer, or a Flush's mark.
type kept struct {
	e       Entry
	raw     []byte
	header  http.Header
	redact  *Redactor     // the one of the time it was kept
	flushed chan struct{} // a mark: closed once what came before is written
}

// NewCapture returns a capture into the file at path, its bodies redacted
// by redact, and starts its writer, which ends with ctx.
func NewCapture(ctx context.Context, path string, limits CaptureLimits, redact *Redactor, log *slog.Logger) *Capture {
	c := &Capture{path: path, limits: limits, log: log, now: time.Now, queue: make(chan kept, captureQueue)}
	c.redact.Store(redact)
	go c.write(ctx)
	return c
}

// Redact has the messages kept from now on redacted by r: the person
// changed their patterns.
func (c *Capture) Redact(r *Redactor) { c.redact.Store(r) }

// Keep hands the message of e, raw, and the headers of the HTTP response
// it came in (nil for none) to the writer, unless too much waits already:
// it never blocks.
func (c *Capture) Keep(e Entry, raw []byte, header http.Header) {
	if c.queued.Add(int64(len(raw))) > captureQueueBytes {
		c.queued.Add(-int64(len(raw)))
		c.dropped.Add(1)
		return
	}
	select {
	case c.queue <- kept{e: e, raw: raw, header: header, redact: c.redact.Load()}:
	default:
		c.queued.Add(-int64(len(raw)))
		c.dropped.Add(1)
	}
}

// Flush waits until what was kept before it is written, or given up,
// or ctx ends: the app flushes as it quits.
func (c *Capture) Flush(ctx context.Context) error {
	mark := kept{flushed: make(chan struct{})}
	select {
	case c.queue <- mark:
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	select {
	case <-mark.flushed:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// Status says how the capture stands.
func (c *Capture) Status() CaptureStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.status
	s.Dropped = c.dropped.Load()
	return s
}

// write writes what Keep hands over until ctx ends.
func (c *Capture) write(ctx context.Context) {
	f := captureFile{path: c.path, limits: c.limits, now: c.now}
	defer f.close()
	forms := answers{}
	// Once ctx ends nothing more is written, though messages still wait:
	// a select with both ready would pick either.
	for ctx.Err() == nil {
		select {
		case <-ctx.Done():
			return
		case k := <-c.queue:
			if k.flushed != nil {
				close(k.flushed)
				continue
			}
			c.queued.Add(-int64(len(k.raw)))
			line := c.line(k, forms)
			err := f.append(line)
			c.mu.Lock()
			switch {
			case err == nil:
				c.status.Written++
				c.status.Error = ""
			default:
				c.dropped.Add(1)
				if c.status.Error == "" {
					c.log.Warn("traffic capture: a body could not be written; it is dropped until a write works again", "path", c.path, "err", err)
				}
				c.status.Error = err.Error()
			}
			c.mu.Unlock()
		}
	}
}

// line is the capture file's line of k, its body redacted and within
// MaxBody. forms holds the schemas of the elicitations waiting for their
// answers, whose secret fields the answers' redaction needs.
func (c *Capture) line(k kept, forms answers) []byte {
	e := k.e
	key := answerKey{e.Server, e.Session, string(e.ID)}
	var body json.RawMessage
	switch {
	case e.Kind == Request && e.Method == "elicitation/create":
		forms.add(key, []byte(gjson.GetBytes(k.raw, "params.requestedSchema").Raw))
		body = k.redact.Redact(k.raw)
	case e.Dir == ToServer && e.Kind == Result && (e.Method == "elicitation/create" || e.Method == ""):
		// A person's answer, or an answer to a request the tap did not
		// keep: without its form, every field's value goes.
		form, known := forms.take(key)
		body = k.redact.RedactAnswer(k.raw, form, known)
	default:
		body = k.redact.Redact(k.raw)
	}
	l := CaptureLine{Entry: e, Header: k.redact.RedactHeader(k.header), Body: body}
	if len(l.Body) > c.limits.MaxBody {
		cut := c.limits.MaxBody
		for cut > 0 && !utf8.RuneStart(l.Body[cut]) {
			cut-- // whole characters only
		}
		l.Body, _ = json.Marshal(string(l.Body[:cut]))
		l.Cut = true
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b) // ends the line
	enc.SetEscapeHTML(false)   // <, > and & as the message had them
	enc.Encode(l)
	return b.Bytes()
}

// answers are elicitations' schemas until their answers, at most
// maxWaiting of them: past that they are forgotten, and an answer whose
// form is forgotten keeps none of its fields' values.
type answers map[answerKey][]byte

type answerKey struct{ server, session, id string }

func (a answers) add(k answerKey, form []byte) {
	if len(a) >= maxWaiting {
		clear(a) // a peer that never answers cannot grow it
	}
	a[k] = slices.Clone(form)
}

func (a answers) take(k answerKey) (form []byte, known bool) {
	form, known = a[k]
	delete(a, k)
	return form, known
}

// captureFile is the file a capture writes, reopened when it was removed
// or replaced, turned over within its limits.
type captureFile struct {
	path   string
	limits CaptureLimits
	now    func() time.Time

	f       *os.File
	size    int64
	first   time.Time // the current file's first line's
	checked time.Time // when the path was last checked to be f
	broken  bool      // the last write may have left half a line
}

// checkEvery is how often the writer looks whether its file is still the
// one at its path: someone may delete, move or truncate it.
const checkEvery = time.Second

// append writes line, opening, reopening or turning the file over first
// where needed.
func (cf *captureFile) append(line []byte) error {
	now := cf.now()
	if cf.f != nil && now.Sub(cf.checked) >= checkEvery {
		cf.checked = now
		at, err1 := os.Stat(cf.path)
		open, err2 := cf.f.Stat()
		if err1 != nil || err2 != nil || !os.SameFile(at, open) {
			cf.close() // removed or replaced: a new file at the path
		} else {
			cf.size = open.Size() // truncated, perhaps
			cf.broken = cf.broken || midLine(cf.f, cf.size)
		}
	}
	if cf.f == nil {
		if err := cf.open(); err != nil {
			return err
		}
	}
	if cf.size > 0 && (cf.size+int64(len(line)) > cf.limits.MaxBytes/2 || now.Sub(cf.first) > cf.limits.Retention/2) {
		if err := cf.turnOver(); err != nil {
			return err
		}
	}
	if cf.broken {
		line = append([]byte{'\n'}, line...) // end the half line: a reader skips it
	}
	n, err := cf.f.Write(line)
	cf.size += int64(n)
	cf.broken = err != nil && n > 0 || err != nil && cf.broken
	if err != nil {
		return err
	}
	if cf.size == int64(n) {
		cf.first = now
	}
	return nil
}

// open opens the file at the path for appending, creating it, only the
// person's, and removes an old file past its retention.
func (cf *captureFile) open() error {
	if err := os.MkdirAll(filepath.Dir(cf.path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(cf.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	info, err := f.Stat()
	if err == nil && info.Mode().IsRegular() && info.Mode().Perm() != 0o600 {
		err = f.Chmod(0o600) // a file made before, or by someone else: the bodies are the person's
	}
	if err != nil {
		f.Close()
		return err
	}
	cf.f, cf.size, cf.checked = f, info.Size(), cf.now()
	cf.broken = midLine(f, cf.size) // the last writer stopped half way
	cf.first = cf.now()
	if lines, _ := readLines(cf.path, 1); len(lines) > 0 {
		cf.first = lines[0].Time
	}
	removeOld(cf.path+".1", cf.limits.Retention, cf.now())
	return nil
}

// midLine: the file of this size does not end a line.
func midLine(f *os.File, size int64) bool {
	last := make([]byte, 1)
	if size == 0 {
		return false
	}
	_, err := f.ReadAt(last, size-1)
	return err == nil && last[0] != '\n'
}

// turnOver makes the file the old one, and starts a new one.
func (cf *captureFile) turnOver() error {
	cf.close()
	if err := os.Rename(cf.path, cf.path+".1"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return cf.open()
}

func (cf *captureFile) close() {
	if cf.f != nil {
		cf.f.Close()
		cf.f = nil
	}
}

// Sweep removes the files of the capture at path whose last write is
// older than retention: the old file, and the file itself when nothing
// was written for that long (the capture was off). The app sweeps at
// start and each day; a writer sweeps the old file as it opens.
func Sweep(path string, retention time.Duration, now time.Time) error {
	return errors.Join(removeOld(path+".1", retention, now), removeOld(path, retention, now))
}

// removeOld removes the file at p if it was last written longer ago
// than retention.
func removeOld(p string, retention time.Duration, now time.Time) error {
	info, err := os.Stat(p)
	if err == nil && info.Mode().IsRegular() && now.Sub(info.ModTime()) > retention {
		err = os.Remove(p)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// ReadCapture returns the lines of the capture at path and of its old
// file, oldest first, but those older than retention (none when it is
// zero). Lines that do not parse (a half line a full disk left) are
// skipped. A capture never written is no lines, not an error.
func ReadCapture(path string, retention time.Duration, now time.Time) ([]CaptureLine, error) {
	var all []CaptureLine
	for _, p := range []string{path + ".1", path} {
		lines, err := readLines(p, 0)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		all = append(all, lines...)
	}
	if retention > 0 {
		all = slices.DeleteFunc(all, func(l CaptureLine) bool { return now.Sub(l.Time) > retention })
	}
	return all, nil
}

// Find returns the line of the capture at path that keeps e's message,
// if the capture has it: the newest line numbered as e whose time is e's
// (numbers start again with each run of the app). It reads the old file
// and the file line by line, parsing only the lines numbered as e.
func Find(path string, e Entry) (CaptureLine, bool, error) {
	prefix := []byte(`{"seq":` + strconv.FormatUint(e.Seq, 10) + `,`)
	var found CaptureLine
	ok := false
	for _, p := range []string{path + ".1", path} {
		err := scanLines(p, func(raw []byte) bool {
			var l CaptureLine
			if bytes.HasPrefix(raw, prefix) && json.Unmarshal(raw, &l) == nil && l.Time.Equal(e.Time) {
				found, ok = l, true
			}
			return true
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return CaptureLine{}, false, err
		}
	}
	return found, ok, nil
}

// maxLine bounds a line a reader takes: a body of MaxBody escaped as a
// string, and its entry. A longer one is not a capture's, and skipped.
const maxLine = 8 << 20

// readLines reads the lines of the file at path that parse, at most max
// of them (all when max is 0).
func readLines(path string, max int) ([]CaptureLine, error) {
	var out []CaptureLine
	err := scanLines(path, func(raw []byte) bool {
		var l CaptureLine
		if json.Unmarshal(raw, &l) == nil && l.Seq != 0 {
			out = append(out, l)
		}
		return max == 0 || len(out) < max
	})
	return out, err
}

// scanLines hands each line of the file at path to each, until it returns
// false; a line over maxLine is skipped, and what is not a regular file
// has none. The slice is each's only until it returns.
func scanLines(path string, each func(line []byte) bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return err
	}
	r := bufio.NewReaderSize(f, 64<<10)
	var line []byte
	long := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !long {
			line = append(line, chunk...)
			long = len(line) > maxLine
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // the line goes on
		}
		if trimmed := bytes.TrimSpace(line); !long && len(trimmed) > 0 && !each(trimmed) {
			return nil
		}
		line, long = line[:0], false
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
	}
}
