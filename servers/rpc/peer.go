// Package rpc is a JSON-RPC 2.0 peer over a link.Link: the one that the
// app's connections and the command line speak MCP through. It matches
// its calls' answers by id, tells the other side when a call's context
// ends (notifications/cancelled), hands the other side's requests to a
// handler under a context that its notifications/cancelled ends, and its
// notifications to another. Every JSON-RPC error, received or sent, is a
// *jsonrpc.Error; messages stay the bytes their sender wrote.
package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// Request is one request of the other side's.
type Request struct {
	ID     json.RawMessage
	Method string
	Params json.RawMessage // as sent; nil when absent
}

// Handler answers one request of a method from its params as sent (nil
// when absent), as Options.Request does.
type Handler func(ctx context.Context, params json.RawMessage) (json.RawMessage, error)

// Typed is a Handler of f, which takes its params as a P and answers an
// R. Params that do not decode as a P, absent ones included, are refused
// -32602 (invalid params).
func Typed[P, R any](f func(ctx context.Context, p P) (R, error)) Handler {
	return func(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
		var p P
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: " + err.Error()}
		}
		r, err := f(ctx, p)
		if err != nil {
			return nil, err
		}
		return json.Marshal(r)
	}
}

// Options are the handlers of what the other side sends.
type Options struct {
	// Methods answer the requests of the methods they name in place of
	// Request, by the same rules for results, errors and cancelling: a
	// request goes straight to the code that answers its method. It is
	// read from many goroutines and must not change after New.
	Methods map[string]Handler
	// Ordered names the methods whose requests take turns in the order
	// they were read (see Turns): a handler's WaitTurn, or its Call under
	// InTurn, waits until the requests read before passed theirs. Others
	// run as scheduled.
	Ordered map[string]bool
	// Request answers one request of a method not in Methods: its raw
	// result, or an error. A *jsonrpc.Error goes back as it is; any other
	// error goes back as -32603 with its text, unless the request's
	// context has ended (the other side cancelled it, or the peer is
	// closing), when nothing is sent. Each request runs on a goroutine of
	// its own. Nil answers every such request -32601 (method not found).
	Request func(ctx context.Context, req Request) (json.RawMessage, error)
	// Notification hears each notification but notifications/cancelled,
	// in order, on the reading goroutine: it must not block.
	Notification func(m link.Message)
	// Bad gives the error that answers a request that could not be read
	// (see link.BadMessage), on the reading goroutine; nil answers -32600
	// for one too large, -32700 otherwise.
	Bad func(bad *link.BadMessage) *jsonrpc.Error
	// Log hears of what cannot be answered; nil discards.
	Log *slog.Logger
}

// ErrClosed is the cause of every call still waiting, and of the context
// of every request being answered, when the link ends or Close is called.
var ErrClosed = errors.New("the connection closed")

// ErrCancelled is the cause of a request's context that the other side's
// notifications/cancelled ended; a *Cancelled when it said why.
var ErrCancelled = errors.New("the other side cancelled the request")

// Cancelled is ErrCancelled with the reason the other side gave, cut to
// a size a window shows.
type Cancelled struct{ Reason string }

func (c *Cancelled) Error() string {
	if c.Reason == "" {
		return ErrCancelled.Error()
	}
	return ErrCancelled.Error() + ": " + c.Reason
}

func (c *Cancelled) Is(target error) bool { return target == ErrCancelled }

// Peer is one side of a JSON-RPC conversation over a link.
type Peer struct {
	l    link.Link
	opts Options

	life     context.Context // ends at Close or when the link ends; requests run under it
	end      context.CancelCauseFunc
	read     chan struct{} // closed when the reading goroutine is done
	handlers sync.WaitGroup

	calls *Calls[struct{}]

	mu         sync.Mutex
	closed     bool
	err        error                              // why the link ended, once read is closed
	incoming   map[string]context.CancelCauseFunc // their requests being answered, by id
	early      map[string]error                   // cancellations that overtook their request
	turns      Turns                              // of Ordered requests; the reading goroutine's
	unreadable *Dropped                           // the reading goroutine's
	copies     *Dropped                           // requests dropped for an id in use; the reading goroutine's
}

// maxEarlyCancels bounds what the other side can make the peer remember
// with cancellations of requests it never sends.
const maxEarlyCancels = 256

// New starts a peer on l; it reads from l until l ends or Close.
func New(l link.Link, opts Options) *Peer {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	life, end := context.WithCancelCause(context.Background())
	p := &Peer{
		l: l, opts: opts, life: life, end: end, read: make(chan struct{}), calls: NewCalls[struct{}](life, l, ""),
		incoming: map[string]context.CancelCauseFunc{}, early: map[string]error{},
		unreadable: NewDropped(), copies: NewDropped(),
	}
	go p.run()
	return p
}

// Done is closed when the link has ended; Err then says why.
func (p *Peer) Done() <-chan struct{} { return p.read }

// Err says why the link ended: io.EOF when the other side closed it; nil
// while it lives.
func (p *Peer) Err() error {
	select {
	case <-p.read:
	default:
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Close ends the conversation: calls waiting fail with ErrClosed, the
// contexts of requests being answered end, and Close waits for their
// handlers and the reading goroutine before it returns.
func (p *Peer) Close() error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.end(ErrClosed)
	err := p.l.Close()
	<-p.read
	p.handlers.Wait()
	return err
}

// Call sends a request and waits for its answer: the raw result, or the
// other side's error as a *jsonrpc.Error. When ctx ends first, the other
// side is told with notifications/cancelled and Call returns ctx's cause.
// params is sent as it is when it is a json.RawMessage, else marshalled.
func (p *Peer) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		return nil, p.calls.closedErr()
	}
	m, err := p.calls.Call(ctx, struct{}{}, func(id json.RawMessage) (link.Message, error) { return request(id, method, params) })
	if err != nil {
		return nil, err
	}
	return answer(m)
}

// Notify sends a notification.
func (p *Peer) Notify(ctx context.Context, method string, params any) error {
	m, err := notification(method, params)
	if err != nil {
		return err
	}
	return p.l.Write(ctx, m)
}

// notification builds a notification message.
func notification(method string, params any) (link.Message, error) {
	raw, err := Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", method, params})
	if err != nil {
		return link.Message{}, err
	}
	return link.Message{Raw: raw, Method: method}, nil
}

// request builds a request message.
func request(id json.RawMessage, method string, params any) (link.Message, error) {
	var rawParams json.RawMessage
	switch v := params.(type) {
	case nil:
	case json.RawMessage:
		rawParams = v
	default:
		b, err := Marshal(v)
		if err != nil {
			return link.Message{}, fmt.Errorf("%s params: %w", method, err)
		}
		rawParams = b
	}
	raw, err := Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", id, method, rawParams})
	if err != nil {
		return link.Message{}, err
	}
	return link.Message{Raw: raw, ID: id, Method: method}, nil
}

// answer reads a response: its result, or its error. An error a link
// made up for a request it could not deliver keeps its cause too.
func answer(m link.Message) (json.RawMessage, error) {
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *jsonrpc.Error  `json:"error"`
	}
	if err := json.Unmarshal(m.Raw, &r); err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: fmt.Sprintf("the answer could not be read: %v", err)}
	}
	if r.Error != nil {
		if m.Cause != nil {
			return nil, &caused{r.Error, m.Cause}
		}
		return nil, r.Error
	}
	if r.Result == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "the answer has neither a result nor an error"}
	}
	return r.Result, nil
}

// caused is a *jsonrpc.Error a link made up, with the error behind it
// (a sign-in's, an HTTP status): both are found by errors.As and Is.
type caused struct {
	rpc   *jsonrpc.Error
	cause error
}

func (e *caused) Error() string   { return e.rpc.Message }
func (e *caused) Unwrap() []error { return []error{e.rpc, e.cause} }

// run reads the link until it ends.
func (p *Peer) run() {
	var err error
	for {
		var m link.Message
		m, err = p.l.Read()
		var bad *link.BadMessage
		if errors.As(err, &bad) {
			p.bad(bad)
			continue
		}
		if err != nil {
			break
		}
		switch {
		case m.IsResponse():
			p.response(m)
		case m.IsRequest():
			p.request(m)
		case m.Method == "notifications/cancelled":
			p.cancelled(m)
		case p.opts.Notification != nil:
			p.opts.Notification(m)
		}
	}
	p.unreadable.Ended(p.opts.Log, "messages that could not be read, in all")
	p.copies.Ended(p.opts.Log, "requests dropped for an id in use, in all")
	if errors.Is(err, io.EOF) {
		err = io.EOF
	}
	p.mu.Lock()
	p.err = err
	p.mu.Unlock()
	p.end(fmt.Errorf("%w: %w", ErrClosed, err))
	close(p.read)
}

// response hands a response to the call waiting for it.
func (p *Peer) response(m link.Message) {
	if !p.calls.Answer(m) {
		p.opts.Log.Debug("an answer to no call waiting; dropped", "id", string(m.ID))
	}
}

// bad answers a message that could not be read: a request gets an error,
// a call whose answer it was fails; anything else is only logged.
func (p *Peer) bad(bad *link.BadMessage) {
	p.unreadable.Warn(p.opts.Log, "a message could not be read", bad)
	switch {
	case bad.IsRequest():
		var e *jsonrpc.Error
		if p.opts.Bad != nil {
			e = p.opts.Bad(bad)
		}
		if e == nil {
			e = BadError(bad)
		}
		p.write(Response(bad.ID, nil, e))
	case bad.ID != nil && bad.Method == "":
		p.calls.Answer(Response(bad.ID, nil, &jsonrpc.Error{
			Code: jsonrpc.CodeInternal, Message: fmt.Sprintf("the answer could not be read: %v", bad.Err),
		}))
	}
}

// BadError is the usual answer to a request that could not be read.
func BadError(bad *link.BadMessage) *jsonrpc.Error {
	code := jsonrpc.CodeParseError
	if errors.Is(bad.Err, link.ErrTooLarge) {
		code = jsonrpc.CodeInvalidRequest
	}
	return &jsonrpc.Error{Code: code, Message: fmt.Sprintf("the request could not be read: %v", bad.Err)}
}

// errIDInUse is why a request is dropped: it has the id of one still
// being answered. MCP allows an id once in a session, and one answer
// cannot stand for two questions; a copy sent again (a stream replayed)
// must not answer the first with an error either.
var errIDInUse = errors.New("its id is that of a request still being answered")

// lifeKey carries, in a request's context, the life of the link it came
// on (Life).
type lifeKey struct{}

// Life is the context of the link a request whose context is ctx came on,
// which ends with the link, long after the request is answered; nil
// outside a request.
func Life(ctx context.Context) context.Context {
	life, _ := ctx.Value(lifeKey{}).(context.Context)
	return life
}

// request starts answering one of the other side's requests.
func (p *Peer) request(m link.Message) {
	key := m.Key()
	ctx, cancel := context.WithCancelCause(context.WithValue(p.life, lifeKey{}, p.life))
	arrived := func() {}
	if p.opts.Ordered[m.Method] {
		ctx, arrived = p.turns.Next(ctx)
	}
	p.mu.Lock()
	_, inUse := p.incoming[key]
	if p.closed || inUse {
		closed := p.closed
		p.mu.Unlock()
		cancel(nil)
		arrived()
		if !closed {
			p.copies.Warn(p.opts.Log, "a request dropped, unanswered", &link.BadMessage{Size: len(m.Raw), Err: errIDInUse, ID: m.ID, Method: m.Method})
		}
		return
	}
	p.incoming[key] = cancel
	if cause, ok := p.early[key]; ok {
		delete(p.early, key)
		cancel(cause)
	}
	p.handlers.Add(1)
	p.mu.Unlock()
	go func() {
		defer p.handlers.Done()
		res, ok := p.serve(ctx, m)
		arrived()
		// Forgotten before the answer goes: the other side may reuse the
		// id once it has it.
		p.mu.Lock()
		delete(p.incoming, key)
		p.mu.Unlock()
		cancel(nil)
		if ok {
			p.write(res)
		}
	}()
}

// serve answers one request: the response, or false when none is sent.
func (p *Peer) serve(ctx context.Context, m link.Message) (link.Message, bool) {
	handle := p.opts.Methods[m.Method]
	if handle == nil && p.opts.Request == nil {
		return Response(m.ID, nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found: " + m.Method}), true
	}
	// gjson, not encoding/json, which refuses to read past 10,000 levels:
	// the handler says why it refuses what nests that deep.
	var params json.RawMessage
	if v := gjson.GetBytes(m.Raw, "params"); v.Exists() {
		params = json.RawMessage(v.Raw)
	}
	var res json.RawMessage
	var err error
	if handle != nil {
		res, err = handle(ctx, params)
	} else {
		res, err = p.opts.Request(ctx, Request{ID: m.ID, Method: m.Method, Params: params})
	}
	var rpc *jsonrpc.Error
	switch {
	case errors.As(err, &rpc):
		return Response(m.ID, nil, rpc), true
	case err != nil && ctx.Err() != nil:
		p.opts.Log.Debug("a request ended without an answer", "method", m.Method, "err", err)
	case err != nil:
		return Response(m.ID, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: err.Error()}), true
	case ctx.Err() != nil:
		// Cancelled: the other side wants no answer.
	default:
		return Response(m.ID, res, nil), true
	}
	return link.Message{}, false
}

// write sends an answer to one of the other side's requests.
func (p *Peer) write(res link.Message) {
	if err := p.l.Write(context.WithoutCancel(p.life), res); err != nil && p.life.Err() == nil {
		p.opts.Log.Warn("could not answer a request", "err", err)
	}
}

// Response is the answer to the request with id: result, {} when nil,
// or e when not nil. A link that must answer a request before or instead
// of its peer (a handshake, a message it refuses) makes it here.
func Response(id, result json.RawMessage, e *jsonrpc.Error) link.Message {
	msg := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result,omitempty"`
		Error   *jsonrpc.Error  `json:"error,omitempty"`
	}{JSONRPC: "2.0", ID: id, Result: result, Error: e}
	if e == nil && result == nil {
		msg.Result = json.RawMessage("{}")
	}
	raw, err := Marshal(msg)
	if err != nil {
		raw, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: err.Error()}})
	}
	return link.Message{Raw: raw, ID: id}
}

// Marshal is json.Marshal without escaping <, > and & (nor U+2028 and
// U+2029), as the peer writes every message: raw JSON passed on, a
// server's params or the result for them, keeps its strings byte for byte
// and its size (a string of < would grow sixfold as \u003c). A Request
// handler makes its result with it for the same reason.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// cancelled ends the context of the request a notifications/cancelled
// names; one not yet arrived is remembered for when it does.
func (p *Peer) cancelled(m link.Message) {
	var v struct {
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    string          `json:"reason"`
		} `json:"params"`
	}
	if json.Unmarshal(m.Raw, &v) != nil || v.Params.RequestID == nil || string(v.Params.RequestID) == "null" {
		return
	}
	cause := ErrCancelled
	if v.Params.Reason != "" { // shown beside the request it ends, and kept in History: cut as read
		cause = &Cancelled{Reason: string(untrusted.Text(v.Params.Reason).Cut(untrusted.NameBytes))}
	}
	key := link.IDKey(v.Params.RequestID)
	p.mu.Lock()
	defer p.mu.Unlock()
	if cancel, ok := p.incoming[key]; ok {
		cancel(cause)
	} else if len(p.early) < maxEarlyCancels {
		p.early[key] = cause
	}
}
