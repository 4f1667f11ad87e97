package bridge

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// end is the test's end of a link: the host or the server.
type end struct {
	t     *testing.T
	w     io.WriteCloser
	lines chan string
}

// pipe returns the session's link to a peer and the test's end of it.
func pipe(t *testing.T) (link.Link, *end) {
	toSession, fromPeer := io.Pipe()
	toPeer, fromSession := io.Pipe()
	p := &end{t: t, w: fromPeer, lines: make(chan string, 100)}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(toPeer)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() { fromPeer.Close(); toPeer.Close() })
	return link.NewLines(toSession, fromSession), p
}

// send writes one line to the session.
func (p *end) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.w, line+"\n"); err != nil {
		p.t.Fatalf("sending %s: %v", line, err)
	}
}

// next returns the next line the session wrote to the peer.
func (p *end) next() string {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			p.t.Fatal("the session closed the link")
		}
		return l
	case <-time.After(10 * time.Second):
		p.t.Fatal("nothing arrived within 10 s")
	}
	return ""
}

// nextMethod skips to the next message with method.
func (p *end) nextMethod(method string) string {
	p.t.Helper()
	for {
		if l := p.next(); gjson.Get(l, "method").String() == method {
			return l
		}
	}
}

// closed waits until the session closes its end.
func (p *end) closed() {
	p.t.Helper()
	for {
		select {
		case _, ok := <-p.lines:
			if !ok {
				return
			}
		case <-time.After(10 * time.Second):
			p.t.Fatal("the link stayed open")
		}
	}
}

// fakeDesk answers questions from a channel the test feeds.
type fakeDesk struct {
	asked    chan question
	mu       sync.Mutex
	done     []endpoint.Completion
	listed   []endpoint.Bridged
	noWindow bool
}

type question struct {
	q      endpoint.Question
	ctx    context.Context
	answer chan answer
}

type answer struct {
	raw json.RawMessage
	err error
}

func newDesk() *fakeDesk { return &fakeDesk{asked: make(chan question, 10)} }

func (d *fakeDesk) Ask(ctx context.Context, q endpoint.Question) (json.RawMessage, error) {
	if d.noWindow {
		return nil, ErrNoWindow
	}
	a := question{q: q, ctx: ctx, answer: make(chan answer, 1)}
	arrived := rpc.WaitTurn(ctx) // as the app's endpoint client's call does
	d.asked <- a
	arrived()
	select {
	case r := <-a.answer:
		return r.raw, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (d *fakeDesk) Complete(c endpoint.Completion) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.done = append(d.done, c)
}

func (d *fakeDesk) Attach(_ context.Context, s endpoint.Bridged) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.listed = append(d.listed, s)
}

// question waits for the next question at the desk.
func (d *fakeDesk) question(t *testing.T) question {
	t.Helper()
	select {
	case q := <-d.asked:
		return q
	case <-time.After(10 * time.Second):
		t.Fatal("no question reached the desk")
	}
	return question{}
}

// session runs a session between a test host and a test server.
type session struct {
	host, server *end
	desk         *fakeDesk
	ended        chan error
	unshown      chan endpoint.Unshown
	// stop ends the session and returns Run's error, once every answer
	// it started has ended.
	stop func() error
}

func start(t *testing.T, desk *fakeDesk, opts Options) *session {
	t.Helper()
	hl, host := pipe(t)
	sl, server := pipe(t)
	s := run(t, hl, sl, desk, opts)
	s.host, s.server = host, server
	return s
}

// run runs a session between two links until the test ends.
func run(t *testing.T, hl, sl link.Link, desk *fakeDesk, opts Options) *session {
	s := &session{desk: desk, ended: make(chan error, 1), unshown: make(chan endpoint.Unshown, 10)}
	opts.Desk = desk
	opts.Info = endpoint.Bridged{ID: "s1", Server: "everything", Target: "everything --stdio"}
	opts.Unshown = func(u endpoint.Unshown) { s.unshown <- u }
	ctx, cancel := context.WithCancel(context.Background())
	go func() { s.ended <- New(hl, sl, opts).Run(ctx) }()
	s.stop = sync.OnceValue(func() error {
		cancel()
		return <-s.ended
	})
	t.Cleanup(func() { s.stop() })
	return s
}

// initialize runs the handshake with host capabilities caps.
func (s *session) initialize(t *testing.T, caps string) {
	t.Helper()
	s.host.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"clientInfo":{"name":"claude","title":"Claude Desktop","version":"1.2"}}}`)
	s.server.next()
	s.server.send(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"everything","version":"2"}}}`)
	s.host.next()
}
