// Package traffic keeps what passed on the core's MCP connections: for
// every JSON-RPC message, which way it went, when, its method, id and
// size, and for an answer the method, tool and latency of its request
// and how it ended. The ring of a bounded number of entries keeps only
// these facts, so that a developer can see what their server was sent
// and said, and how long it took. The messages themselves, redacted, go
// only to a Capture the person switched on.
package traffic

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// Dir is which way a message went, seen from Elicit Desk.
type Dir string

const (
	ToServer   Dir = "out" // Elicit Desk sent it to the server
	FromServer Dir = "in"  // the server sent it
)

// Kind is what a message is.
type Kind string

const (
	Request      Kind = "request"
	Notification Kind = "notification"
	Result       Kind = "result"
	Error        Kind = "error"
	Cancel       Kind = "cancel" // notifications/cancelled of a request that was waiting
)

// Entry is one message on one connection, without its params or result.
// What the peer wrote (method, id, tool) is untrusted, and cut to
// FieldBytes.
type Entry struct {
	Seq    uint64    `json:"seq"` // counts every entry since the core started
	Time   time.Time `json:"time"`
	Server string    `json:"server"` // the configured name, or the bridged session's server
	// Session is the bridged session's id, and Host its host's name, for
	// a message between a host's server and the bridge; "" for the
	// core's own connections.
	Session string         `json:"session,omitempty"`
	Host    untrusted.Text `json:"host,omitempty"`
	Dir     Dir            `json:"dir"`
	Kind    Kind           `json:"kind"`
	Method  untrusted.Text `json:"method,omitempty"` // an answer's or a cancel's: its request's, when it was seen
	Tool    untrusted.Text `json:"tool,omitempty"`   // tools/call's, on the call and its answer
	ID      untrusted.Text `json:"id,omitempty"`     // as sent, JSON; a cancel's: the request's it cancels
	Size    int            `json:"size"`             // bytes
	// Latency is an answer's or a cancel's time since its request;
	// zero when the request was not seen.
	Latency time.Duration `json:"latencyNs,omitempty"`
	Code    int           `json:"code,omitempty"` // an error's JSON-RPC code
	// Status is the HTTP status of the response the message came in, or
	// that an error was made of; 0 for other transports.
	Status int `json:"status,omitempty"`
	// Local: Elicit Desk's transport made this error up, for a request it
	// could not deliver; the server sent nothing.
	Local bool `json:"local,omitempty"`
	// ToolFailed: a tools/call's result says the tool failed (isError),
	// an answer of JSON-RPC's, not an error.
	ToolFailed bool `json:"toolFailed,omitempty"`
}

// Outcome says how an answer ended: "ok" ("ok, the tool failed" for a
// tool's failure), "error -32602" (with ", HTTP 404" where there was
// one), "cancelled", each starting with the word the status: filter
// takes; "" for requests and notifications.
func (e Entry) Outcome() string {
	switch e.Kind {
	case Result:
		if e.ToolFailed {
			return "ok, the tool failed"
		}
		return "ok"
	case Cancel:
		return "cancelled"
	case Error:
		s := "error " + strconv.Itoa(e.Code)
		if e.Status != 0 {
			s += ", HTTP " + strconv.Itoa(e.Status)
		}
		if e.Local {
			s += ", not sent by the server"
		}
		return s
	}
	return ""
}

// FieldBytes bounds each of a peer's words an entry keeps.
const FieldBytes = 128

// DefaultSize is how many entries a Record keeps when told none: an
// entry is 200 bytes and its words, so about 2 MB of typical ones, 5 MB
// at most, held once that many messages passed.
const DefaultSize = 8192

// maxWaiting bounds the requests a connection remembers until they are
// answered, for their answers' latency: a peer that never answers cannot
// grow the record.
const maxWaiting = 1024

// Record is the ring of the latest entries of every connection tapped.
type Record struct {
	now func() time.Time

	size int // entries kept at most

	mu      sync.Mutex
	ring    []Entry // the latest, oldest at next once size long
	next    int
	seq     uint64
	changed chan struct{} // closed, and replaced, at each entry
	capture *Capture      // nil: no bodies kept
	scope   Scope         // whose bodies capture keeps
	// listed are the bridged sessions listed lately, by id, the latest
	// maxListed of them: a bridge's last entries come as its session ends.
	listed map[string]bridged
	order  []string // listed's ids, oldest first
}

// bridged is what a bridged session's entries are kept as.
type bridged struct {
	server string
	host   untrusted.Text
}

// maxListed bounds the bridged sessions a Record remembers.
const maxListed = 256

// New returns a record of the latest size entries (DefaultSize if size
// is not positive).
func New(size int) *Record {
	if size <= 0 {
		size = DefaultSize
	}
	return &Record{now: time.Now, size: size, changed: make(chan struct{}), listed: map[string]bridged{}}
}

// Capture has the messages of those in scope kept by c from now on; a
// nil c keeps none.
func (r *Record) Capture(c *Capture, scope Scope) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.capture, r.scope = c, scope
}

// add puts e into the ring, numbered, and its message m into the
// capture, if there is one.
func (r *Record) add(e Entry, m link.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e = r.put(e)
	if r.capture != nil && r.scope.Keeps(e.Server, e.Session) {
		r.capture.Keep(e, m.Raw, headerOf(m)) // never blocks
	}
	close(r.changed)
	r.changed = make(chan struct{})
}

// Listed has the entries of bridged session kept as server's, with host,
// from now on, and for a while after the session ends.
func (r *Record) Listed(session, server string, host untrusted.Text) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.listed[session]; !ok {
		if len(r.order) == maxListed {
			delete(r.listed, r.order[0])
			r.order = r.order[1:]
		}
		r.order = append(r.order, session)
	}
	r.listed[session] = bridged{server, host}
}

// AddBridged puts entries a bridge saw on session's server link into the
// ring, numbered, as the server and host the session was listed with
// (Listed): what the entries say of the session is not taken, and what
// the server named is cut again. A session not listed adds nothing.
// bodies, where not nil, are the entries' messages, at the same indices,
// for the capture, and headers the headers of the HTTP responses they
// came in.
func (r *Record) AddBridged(session string, entries []Entry, bodies []json.RawMessage, headers []http.Header) {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, ok := r.listed[session]
	if !ok {
		return
	}
	for i, e := range entries {
		if !known(e) {
			continue // the bridge's own words, which the windows show
		}
		e.Session, e.Server, e.Host = session, b.server, b.host
		e.Method, e.Tool, e.ID = e.Method.Cut(FieldBytes), e.Tool.Cut(FieldBytes), e.ID.Cut(FieldBytes)
		e = r.put(e)
		if r.capture != nil && i < len(bodies) && bodies[i] != nil && r.scope.Keeps(e.Server, e.Session) {
			var h http.Header
			if i < len(headers) {
				h = headers[i]
			}
			r.capture.Keep(e, bodies[i], h) // never blocks
		}
	}
	close(r.changed)
	r.changed = make(chan struct{})
}

// known: e's direction and kind are words of this package.
func known(e Entry) bool {
	switch e.Kind {
	case Request, Notification, Result, Error, Cancel:
	default:
		return false
	}
	return e.Dir == ToServer || e.Dir == FromServer
}

// put puts e into the ring, numbered, and returns it so; r.mu is held.
func (r *Record) put(e Entry) Entry {
	r.seq++
	e.Seq = r.seq
	if len(r.ring) < r.size { // grown as messages pass: an idle core holds none
		r.ring = append(r.ring, e)
	} else {
		r.ring[r.next] = e
		r.next = (r.next + 1) % len(r.ring)
	}
	return e
}

// After returns the entries numbered after seq that the ring still holds,
// oldest first, and a channel closed when the next one comes.
func (r *Record) After(seq uint64) ([]Entry, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := min(r.seq-min(seq, r.seq), uint64(len(r.ring))) // the newest n are after seq
	out := make([]Entry, 0, n)
	for i := uint64(len(r.ring)) - n; i < uint64(len(r.ring)); i++ {
		out = append(out, r.ring[(r.next+int(i))%len(r.ring)])
	}
	return out, r.changed
}

// Wait returns the entries after seq, waiting for one if there is none
// yet, until ctx ends.
func (r *Record) Wait(ctx context.Context, seq uint64) ([]Entry, error) {
	for {
		out, changed := r.After(seq)
		if len(out) > 0 {
			return out, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
}

// Tap returns l with every message read and written entered in r as
// server's.
func (r *Record) Tap(server string, l link.Link) link.Link {
	return Tap(server, l, r.now, r.add)
}

// Tap returns l with the entry of every message read and written, as
// server's, given to note with the message as it passes, timed by now: a
// bridge taps its server's link and hands the entries to the app. note
// must not block, and must not change the message.
func Tap(server string, l link.Link, now func() time.Time, note func(Entry, link.Message)) link.Link {
	return &tap{Link: l, now: now, note: note, server: server, waiting: map[waitKey]asked{}}
}

// tap is a link whose messages are noted.
type tap struct {
	link.Link
	now    func() time.Time
	note   func(Entry, link.Message)
	server string

	mu      sync.Mutex
	waiting map[waitKey]asked // requests not yet answered
}

// waitKey is a request waiting for its answer: who sent it, and its id.
type waitKey struct {
	dir Dir
	id  string
}

// asked is what an answer's entry takes from its request's.
type asked struct {
	method, tool untrusted.Text
	at           time.Time
}

func (t *tap) Read() (link.Message, error) {
	m, err := t.Link.Read()
	if err == nil {
		t.saw(FromServer, m)
	}
	return m, err
}

// Write enters m before it writes it: an answer may be read before the
// write returns. A request that could not be written waits for no answer.
func (t *tap) Write(ctx context.Context, m link.Message) error {
	t.saw(ToServer, m)
	err := t.Link.Write(ctx, m)
	if err != nil && m.IsRequest() {
		t.answer(waitKey{ToServer, m.Key()})
	}
	return err
}

// saw enters m, which went dir.
func (t *tap) saw(dir Dir, m link.Message) {
	now := t.now()
	e := Entry{Time: now, Server: t.server, Dir: dir, Size: len(m.Raw), ID: cut(string(m.ID)), Method: cut(m.Method)}
	switch {
	case m.IsRequest():
		e.Kind = Request
		if m.Method == "tools/call" {
			e.Tool = cut(gjson.GetBytes(m.Raw, "params.name").String())
		}
		t.ask(waitKey{dir, m.Key()}, asked{e.Method, e.Tool, now})
	case m.IsNotification() && m.Method == "notifications/cancelled":
		e.Kind = Notification
		id := gjson.GetBytes(m.Raw, "params.requestId").Raw
		if a, ok := t.answer(waitKey{dir, link.IDKey([]byte(id))}); ok {
			e.Kind, e.ID, e.Method, e.Tool, e.Latency = Cancel, cut(id), a.method, a.tool, now.Sub(a.at)
		}
	case m.IsNotification():
		e.Kind = Notification
	default:
		e.Kind = Result
		if code := gjson.GetBytes(m.Raw, "error.code"); code.Exists() {
			e.Kind, e.Code, e.Status, e.Local = Error, int(code.Int()), m.Status, m.Cause != nil
		}
		if a, ok := t.answer(waitKey{other(dir), m.Answers()}); ok {
			e.Method, e.Tool, e.Latency = a.method, a.tool, now.Sub(a.at)
		}
		e.ToolFailed = e.Kind == Result && e.Method == "tools/call" && gjson.GetBytes(m.Raw, "result.isError").Type == gjson.True
	}
	if m.HTTP != nil {
		e.Status = m.HTTP.Status
	}
	t.note(e, m)
}

// headerOf is the headers of the HTTP response m came in; nil for none.
func headerOf(m link.Message) http.Header {
	if m.HTTP == nil {
		return nil
	}
	return m.HTTP.Header
}

// ask remembers a request until its answer, within maxWaiting.
func (t *tap) ask(k waitKey, a asked) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.waiting) < maxWaiting {
		t.waiting[k] = a
	}
}

// answer forgets the request k, which was answered or cancelled, and
// returns it.
func (t *tap) answer(k waitKey) (asked, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	a, ok := t.waiting[k]
	delete(t.waiting, k)
	return a, ok
}

func other(d Dir) Dir {
	if d == ToServer {
		return FromServer
	}
	return ToServer
}

// cut keeps s within FieldBytes, the cut visible, in memory of its own:
// a method gjson read is part of a copy of its whole message.
func cut(s string) untrusted.Text {
	return untrusted.Text(strings.Clone(string(untrusted.Text(s).Cut(FieldBytes))))
}
