package rpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// other is the test's side of a peer's link: it reads what the peer
// writes, line by line, and writes lines to it.
type other struct {
	t     *testing.T
	w     io.WriteCloser
	lines chan string
}

func start(t *testing.T, opts Options) (*Peer, *other) {
	toPeer, fromOther := io.Pipe()
	toOther, fromPeer := io.Pipe()
	o := &other{t: t, w: fromOther, lines: make(chan string, 64)}
	go func() {
		defer close(o.lines)
		sc := bufio.NewScanner(toOther)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			o.lines <- sc.Text()
		}
	}()
	p := New(link.NewLines(toPeer, fromPeer), opts)
	t.Cleanup(func() { fromOther.Close(); p.Close() })
	return p, o
}

func (o *other) send(line string) {
	o.t.Helper()
	if _, err := io.WriteString(o.w, line+"\n"); err != nil {
		o.t.Fatal(err)
	}
}

func (o *other) next() gjson.Result {
	o.t.Helper()
	select {
	case l := <-o.lines:
		return gjson.Parse(l)
	case <-time.After(10 * time.Second):
		o.t.Fatal("the peer sent nothing")
	}
	return gjson.Result{}
}

// TestCallsMatchedByID: answers that come out of order reach their calls,
// errors come back as *jsonrpc.Error with their data.
func TestCallsMatchedByID(t *testing.T) {
	p, o := start(t, Options{})
	type got struct {
		res json.RawMessage
		err error
	}
	first, second := make(chan got, 1), make(chan got, 1)
	go func() { r, err := p.Call(t.Context(), "a", map[string]int{"n": 1}); first <- got{r, err} }()
	a := o.next()
	go func() { r, err := p.Call(t.Context(), "b", nil); second <- got{r, err} }()
	b := o.next()
	if a.Get("method").String() != "a" || a.Get("params.n").Int() != 1 || b.Get("params").Exists() {
		t.Fatalf("sent %s and %s", a.Raw, b.Raw)
	}
	o.send(`{"jsonrpc":"2.0","id":` + b.Get("id").Raw + `,"error":{"code":-32042,"message":"open this","data":{"x":[1]}}}`)
	o.send(`{"jsonrpc":"2.0","id":` + a.Get("id").Raw + `,"result":{"z":1,"a":2}}`)
	if r := <-first; r.err != nil || string(r.res) != `{"z":1,"a":2}` {
		t.Errorf("first call: %s %v", r.res, r.err)
	}
	r := <-second
	if e := jsonrpc.As(r.err); e == nil || e.Code != -32042 || string(e.Data) != `{"x":[1]}` {
		t.Errorf("second call: %v", r.err)
	}
}

// TestCallCancelled: a call whose context ends tells the other side, and
// a late answer to it is dropped.
func TestCallCancelled(t *testing.T) {
	p, o := start(t, Options{})
	ctx, cancel := context.WithCancelCause(t.Context())
	done := make(chan error, 1)
	go func() { _, err := p.Call(ctx, "slow", nil); done <- err }()
	req := o.next()
	cancel(errors.New("the person gave up"))
	if err := <-done; err == nil || err.Error() != "the person gave up" {
		t.Errorf("Call: %v", err)
	}
	n := o.next()
	if n.Get("method").String() != "notifications/cancelled" || n.Get("params.requestId").Raw != req.Get("id").Raw || n.Get("params.reason").String() != "the person gave up" {
		t.Errorf("sent %s", n.Raw)
	}
	o.send(`{"jsonrpc":"2.0","id":` + req.Get("id").Raw + `,"result":{"late":true}}`)
	after := make(chan json.RawMessage, 1)
	go func() { r, _ := p.Call(t.Context(), "after", nil); after <- r }()
	o.send(`{"jsonrpc":"2.0","id":` + o.next().Get("id").Raw + `,"result":{"after":true}}`)
	if r := <-after; string(r) != `{"after":true}` {
		t.Errorf("the next call got %s", r)
	}
}

// TestRequestsServed: each request is answered, from its params as sent;
// one the other side cancels, before or after it arrives, ends its
// context and gets no answer; a request that cannot be read is answered.
func TestRequestsServed(t *testing.T) {
	started := make(chan context.Context, 4)
	_, o := start(t, Options{
		Request: func(ctx context.Context, req Request) (json.RawMessage, error) {
			switch req.Method {
			case "echo":
				return req.Params, nil
			case "refuse":
				return nil, &jsonrpc.Error{Code: -32602, Message: "no"}
			case "fail":
				return nil, errors.New("broken")
			}
			started <- ctx
			<-ctx.Done()
			return nil, context.Cause(ctx)
		},
	})
	o.send(`{"jsonrpc":"2.0","id":1,"method":"echo","params":{"z":1,"a":[1e400]}}`)
	if m := o.next(); m.Get("id").Int() != 1 || m.Get("result").Raw != `{"z":1,"a":[1e400]}` {
		t.Errorf("echo: %s", m.Raw)
	}
	o.send(`{"jsonrpc":"2.0","id":2,"method":"refuse"}`)
	if m := o.next(); m.Get("error.code").Int() != -32602 || m.Get("error.message").String() != "no" {
		t.Errorf("refuse: %s", m.Raw)
	}
	o.send(`{"jsonrpc":"2.0","id":3,"method":"fail"}`)
	if m := o.next(); m.Get("error.code").Int() != jsonrpc.CodeInternal {
		t.Errorf("fail: %s", m.Raw)
	}
	o.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"early"}}`)
	o.send(`{"jsonrpc":"2.0","id":"early","method":"wait"}`)
	if ctx := <-started; !errors.Is(context.Cause(ctx), ErrCancelled) {
		<-ctx.Done()
		t.Errorf("early cancel: %v", context.Cause(ctx))
	}
	o.send(`{"jsonrpc":"2.0","id":4,"method":"wait"}`)
	ctx := <-started
	o.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4,"reason":"timed out"}}`)
	<-ctx.Done()
	if cause := context.Cause(ctx); !errors.Is(cause, ErrCancelled) || !strings.Contains(cause.Error(), "timed out") {
		t.Errorf("cause %v", cause)
	}
	o.send(`{"jsonrpc":"2.0","id":6,"method":"wait"}`)
	ctx = <-started
	long := strings.Repeat("\u2028", 1<<20) // 1 Mi of them, each six bytes of JSON
	o.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6,"reason":"` + long + `"}}`)
	<-ctx.Done()
	if cause := context.Cause(ctx); !errors.Is(cause, ErrCancelled) || len(cause.Error()) > untrusted.NameBytes+len(ErrCancelled.Error())+2 ||
		!strings.Contains(cause.Error(), "bytes in all") {
		t.Errorf("a long reason gives a cause of %d bytes, ending %q", len(cause.Error()), cause.Error()[max(0, len(cause.Error())-40):])
	}
	o.send(`{"jsonrpc":"2.0","id":5,"method":"x","params":` + strings.Repeat("[", 10) + `}`)
	if m := o.next(); m.Get("id").Int() != 5 || m.Get("error.code").Int() != jsonrpc.CodeParseError {
		t.Errorf("bad request: %s (the cancelled ones must get no answer)", m.Raw)
	}
}

// TestIDInUse: a request with the id of one still being answered is
// dropped, never reaching a handler nor answered, so the first one's
// answer is the only one under its id; the log says so once for each,
// up to its limit, and the count at the link's end. An id whose answer
// went out may be used again at once.
func TestIDInUse(t *testing.T) {
	served := make(chan string, 4)
	release := make(chan struct{})
	var log bytes.Buffer // written by the peer's reader, read once the link ended
	p, o := start(t, Options{
		Request: func(ctx context.Context, req Request) (json.RawMessage, error) {
			served <- string(req.Params)
			if req.Method == "wait" {
				<-release
			}
			return req.Params, nil
		},
		Log: slog.New(slog.NewTextHandler(&log, nil)),
	})
	o.send(`{"jsonrpc":"2.0","id":7,"method":"wait","params":{"n":1}}`)
	if got := <-served; got != `{"n":1}` {
		t.Fatalf("served %s", got)
	}
	for range 7 {
		o.send(`{"jsonrpc":"2.0","id":7,"method":"wait","params":{"n":2}}`)
	}
	o.send(`{"jsonrpc":"2.0","id":"after","method":"echo"}`) // read after the copies
	if m := o.next(); m.Get("id").String() != "after" {
		t.Fatalf("a copy was answered: %s", m.Raw)
	}
	<-served
	close(release)
	if m := o.next(); m.Get("id").Int() != 7 || m.Get("result").Raw != `{"n":1}` {
		t.Errorf("the first request got %s", m.Raw)
	}
	select {
	case got := <-served:
		t.Errorf("a copy reached the handler: %s", got)
	default:
	}
	// Reused as soon as each answer arrives: the peer forgets the id
	// before it writes the answer, so none is dropped.
	for i := range 200 {
		o.send(`{"jsonrpc":"2.0","id":8,"method":"echo","params":{"i":` + strconv.Itoa(i) + `}}`)
		if m := o.next(); m.Get("result.i").Int() != int64(i) {
			t.Fatalf("reuse %d got %s", i, m.Raw)
		}
		<-served
	}
	o.w.Close()
	<-p.Done()
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 6 || !strings.Contains(lines[0], "still being answered") || !strings.HasSuffix(lines[5], "dropped=7") {
		t.Errorf("the log:\n%s\nwant five lines of the copies, then their count in all, 7", log.String())
	}
}

// TestMethodsServed: a request of a method in Options.Methods goes to its
// handler with its params as sent, any other to Request, and with no
// Request it is answered "method not found"; a Typed handler refuses
// params that are not its type's.
func TestMethodsServed(t *testing.T) {
	echo := func(_ context.Context, params json.RawMessage) (json.RawMessage, error) { return params, nil }
	_, o := start(t, Options{
		Methods: map[string]Handler{"echo": echo},
		Request: func(_ context.Context, req Request) (json.RawMessage, error) {
			return json.Marshal(req.Method)
		},
	})
	o.send(`{"jsonrpc":"2.0","id":1,"method":"echo","params":{"z":1,"a":[1e400]}}`)
	if m := o.next(); m.Get("result").Raw != `{"z":1,"a":[1e400]}` {
		t.Errorf("echo: %s", m.Raw)
	}
	o.send(`{"jsonrpc":"2.0","id":2,"method":"other"}`)
	if m := o.next(); m.Get("result").String() != "other" {
		t.Errorf("other: %s", m.Raw)
	}

	type pair struct{ A, B int }
	sum := Typed(func(_ context.Context, p pair) (int, error) { return p.A + p.B, nil })
	_, o = start(t, Options{Methods: map[string]Handler{"sum": sum}})
	for _, c := range []struct{ params, want string }{
		{`,"params":{"A":2,"B":3}`, `"result":5`},
		{`,"params":{"A":"two"}`, `"code":-32602`},
		{``, `"code":-32602`}, // absent
	} {
		o.send(`{"jsonrpc":"2.0","id":9,"method":"sum"` + c.params + `}`)
		if m := o.next(); !strings.Contains(m.Raw, c.want) {
			t.Errorf("sum with %q: %s, want %s", c.params, m.Raw, c.want)
		}
	}

	_, o = start(t, Options{Methods: map[string]Handler{"echo": echo}})
	o.send(`{"jsonrpc":"2.0","id":3,"method":"echo"}`)
	if m := o.next(); m.Get("id").Int() != 3 || m.Get("result").Raw != "{}" {
		t.Errorf("echo without params (a nil result goes as {}): %s", m.Raw)
	}
	o.send(`{"jsonrpc":"2.0","id":4,"method":"other"}`)
	if m := o.next(); m.Get("error.code").Int() != jsonrpc.CodeMethodNotFound {
		t.Errorf("other without Request: %s", m.Raw)
	}
}

// TestLinkEnd: calls waiting when the other side goes away fail with
// ErrClosed and why; requests being answered end.
func TestLinkEnd(t *testing.T) {
	started := make(chan context.Context, 1)
	p, o := start(t, Options{Request: func(ctx context.Context, req Request) (json.RawMessage, error) {
		started <- ctx
		<-ctx.Done()
		return nil, ctx.Err()
	}})
	done := make(chan error, 1)
	go func() { _, err := p.Call(t.Context(), "never", nil); done <- err }()
	o.next()
	o.send(`{"jsonrpc":"2.0","id":1,"method":"wait"}`)
	ctx := <-started
	o.w.Close()
	if err := <-done; !errors.Is(err, ErrClosed) || !errors.Is(err, io.EOF) {
		t.Errorf("Call: %v", err)
	}
	<-ctx.Done()
	<-p.Done()
	if !errors.Is(p.Err(), io.EOF) {
		t.Errorf("Err %v", p.Err())
	}
}
