// Package traffic keeps what passed on the core's MCP connections: for
// every JSON-RPC message, which way it went, when, its method, id and
// size, and for an answer the method, tool and latency of its request
// and how it ended. It keeps no message's params or result, only these
// facts, in a ring of a bounded number of entries, so that a developer
// can see what their server was sent and said, and how long it took.
package traffic

import (
	"context"
	"strconv"
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
	Seq    uint64         `json:"seq"` // counts every entry since the core started
	Time   time.Time      `json:"time"`
	Server string         `json:"server"` // the configured name
	Dir    Dir            `json:"dir"`
	Kind   Kind           `json:"kind"`
	Method untrusted.Text `json:"method,omitempty"` // an answer's or a cancel's: its request's, when it was seen
	Tool   untrusted.Text `json:"tool,omitempty"`   // tools/call's, on the call and its answer
	ID     untrusted.Text `json:"id,omitempty"`     // as sent, JSON; a cancel's: the request's it cancels
	Size   int            `json:"size"`             // bytes
	// Latency is an answer's or a cancel's time since its request;
	// zero when the request was not seen.
	Latency time.Duration `json:"latencyNs,omitempty"`
	Code    int           `json:"code,omitempty"`   // an error's JSON-RPC code
	Status  int           `json:"status,omitempty"` // an error's HTTP status, where the transport gave one
}

// Outcome says how an answer ended, in the words the status: filter
// takes: "ok", "error -32602" (with ", HTTP 404" where there was one),
// "cancelled"; "" for requests and notifications.
func (e Entry) Outcome() string {
	switch e.Kind {
	case Result:
		return "ok"
	case Cancel:
		return "cancelled"
	case Error:
		s := "error " + strconv.Itoa(e.Code)
		if e.Status != 0 {
			s += ", HTTP " + strconv.Itoa(e.Status)
		}
		return s
	}
	return ""
}

// FieldBytes bounds each of a peer's words an entry keeps.
const FieldBytes = 128

// DefaultSize is how many entries a Record keeps when told none: about
// 2 MB at their largest.
const DefaultSize = 8192

// maxWaiting bounds the requests a connection remembers until they are
// answered, for their answers' latency: a peer that never answers cannot
// grow the record.
const maxWaiting = 1024

// Record is the ring of the latest entries of every connection tapped.
type Record struct {
	now func() time.Time

	mu      sync.Mutex
	ring    []Entry // the latest, oldest at next once full
	next    int
	seq     uint64
	changed chan struct{} // closed, and replaced, at each entry
}

// New returns a record of the latest size entries (DefaultSize if size
// is not positive).
func New(size int) *Record {
	if size <= 0 {
		size = DefaultSize
	}
	return &Record{now: time.Now, ring: make([]Entry, 0, size), changed: make(chan struct{})}
}

// add puts e into the ring, numbered.
func (r *Record) add(e Entry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	e.Seq = r.seq
	if len(r.ring) < cap(r.ring) {
		r.ring = append(r.ring, e)
	} else {
		r.ring[r.next] = e
		r.next = (r.next + 1) % len(r.ring)
	}
	close(r.changed)
	r.changed = make(chan struct{})
}

// After returns the entries numbered after seq that the ring still holds,
// oldest first, and a channel closed when the next one comes.
func (r *Record) After(seq uint64) ([]Entry, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ordered := append(r.ring[r.next:len(r.ring):len(r.ring)], r.ring[:r.next]...)
	var out []Entry
	for _, e := range ordered {
		if e.Seq > seq {
			out = append(out, e)
		}
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
	return &tap{Link: l, r: r, server: server, waiting: map[waitKey]asked{}}
}

// tap is a link whose messages a Record sees.
type tap struct {
	link.Link
	r      *Record
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

func (t *tap) Write(ctx context.Context, m link.Message) error {
	t.saw(ToServer, m)
	return t.Link.Write(ctx, m)
}

// saw enters m, which went dir.
func (t *tap) saw(dir Dir, m link.Message) {
	now := t.r.now()
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
			e.Kind, e.Code, e.Status = Error, int(code.Int()), m.Status
		}
		if a, ok := t.answer(waitKey{other(dir), m.Answers()}); ok {
			e.Method, e.Tool, e.Latency = a.method, a.tool, now.Sub(a.at)
		}
	}
	t.r.add(e)
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

// cut keeps s within FieldBytes, the cut visible.
func cut(s string) untrusted.Text { return untrusted.Text(s).Cut(FieldBytes) }
