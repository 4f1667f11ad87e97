package wire

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"slices"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// AnswerFunc answers one elicitation from its raw parameters: a result to
// send, an *RPCError, or any other error to send nothing (the server stopped
// waiting). When Refused(ctx) is not nil the request was too large to keep,
// raw is nil and the answer is that refusal.
type AnswerFunc func(ctx context.Context, raw json.RawMessage) (any, error)

// wire wraps an mcp-go v1.2.1 transport to fill the gaps the package doc
// lists. The raw request bytes come from a tap (lineTap or sseTap) in front
// of the transport.
//
// Every answer runs under the wire's life: Close ends them and waits for
// them, so nothing the wire started outlives it.
type wire struct {
	transport.Interface
	raw     *rawRequests
	inbound *inbound
	answer  AnswerFunc
	life    context.Context // ends with Close
	end     context.CancelFunc

	mu      sync.Mutex
	closed  bool
	running sync.WaitGroup // answers in progress
}

// NewStdio returns the transport over a server's newline-delimited streams:
// r carries its messages, seen raw by a line tap before mcp-go decodes
// them, and w ours. closed is called when r ends; log hears of requests
// that cannot be answered.
func NewStdio(r io.Reader, w io.WriteCloser, answer AnswerFunc, closed func(error), log *slog.Logger) transport.Interface {
	raw := newRawRequests()
	return newWire(transport.NewIO(newLineTap(r, raw, log, closed), w, nil), raw, answer)
}

func newWire(inner transport.Interface, raw *rawRequests, answer AnswerFunc) *wire {
	life, end := context.WithCancel(context.Background())
	return &wire{Interface: inner, raw: raw, inbound: newInbound(), answer: answer, life: life, end: end}
}

// hold counts one more answer in progress, unless the wire is closed;
// the caller calls w.running.Done when it ends.
func (w *wire) hold() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	w.running.Add(1)
	return true
}

// Close ends the answers in progress, waits for them and closes the transport.
func (w *wire) Close() error {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.end()
	w.running.Wait()
	return w.Interface.Close()
}

// SetRequestHandler takes elicitation/create for itself, and answers the
// stubs of requests mcp-go could not decode with their refusals. Over HTTP the tap
// has already taken the server's requests off the wire (see sseTap).
func (w *wire) SetRequestHandler(next transport.RequestHandler) {
	bidi, ok := w.Interface.(transport.BidirectionalInterface)
	if !ok {
		return
	}
	bidi.SetRequestHandler(func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		tapped, ok := w.raw.take(requestKey(req.Method, req.ID))
		if req.Method != string(mcp.MethodElicitationCreate) {
			if ok { // a stub for a request mcp-go could not decode
				return transport.NewJSONRPCErrorResponse(req.ID, tapped.refused.Code, tapped.refused.Message, nil), nil
			}
			return next(ctx, req)
		}
		if !ok { // no tap saw it: the order of fields may be lost, nothing else
			tapped.params, _ = json.Marshal(req.Params)
		}
		if !w.hold() {
			return nil, nil // closing: the server gets no answer
		}
		defer w.running.Done()
		return w.elicit(ctx, req.ID, tapped), nil
	})
}

// elicit answers one elicitation/create request: the response to send, or
// nil when the server stopped waiting and wants none.
// It ends with the wire too.
func (w *wire) elicit(ctx context.Context, id mcp.RequestId, req tapped) *transport.JSONRPCResponse {
	ctx, done := w.inbound.begin(ctx, id.String())
	defer done()
	ctx, cancel := context.WithCancel(ctx)
	defer context.AfterFunc(w.life, cancel)()
	defer cancel()
	if req.refused != nil {
		ctx = context.WithValue(ctx, refusedKey{}, req.refused)
	}
	result, err := w.answer(ctx, req.params)
	var rpc *RPCError
	switch {
	case errors.As(err, &rpc):
		return transport.NewJSONRPCErrorResponse(id, rpc.Code, rpc.Message, rpc.Data)
	case err != nil:
		return nil
	}
	body, err := json.Marshal(result)
	if err != nil {
		return transport.NewJSONRPCErrorResponse(id, mcp.INTERNAL_ERROR, err.Error(), nil)
	}
	return &transport.JSONRPCResponse{JSONRPC: mcp.JSONRPC_VERSION, ID: id, Result: body}
}

func (w *wire) SetNotificationHandler(next func(mcp.JSONRPCNotification)) {
	w.Interface.SetNotificationHandler(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationCancelled) {
			w.inbound.cancelled(n.Params.AdditionalFields)
		}
		next(n)
	})
}

func (w *wire) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	send := w.Interface.SendRequest
	if req.Method == string(mcp.MethodServerDiscover) {
		send = w.discover
	}
	resp, err := send(ctx, req)
	if err != nil || resp == nil || resp.Error != nil {
		return resp, err
	}
	if req.Method == string(mcp.MethodServerDiscover) && !modernDiscovery(resp.Result) {
		// mcp-go takes any answer to the probe for a 2026-07-28 server; a
		// legacy server that answers unknown methods with {} is not one.
		return transport.NewJSONRPCErrorResponse(req.ID, mcp.METHOD_NOT_FOUND,
			"server/discover answered without a supported 2026-07-28 version: treating the server as legacy", nil), nil
	}
	if c := inputsFrom(ctx); c != nil {
		c.record(resp.Result)
	}
	if c := schemasFrom(ctx); c != nil && req.Method == string(mcp.MethodToolsList) {
		c.record(resp.Result)
	}
	return resp, nil
}

// modernDiscovery reports whether a server/discover result names a protocol
// version that has discovery at all.
func modernDiscovery(result json.RawMessage) bool {
	var r struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	return json.Unmarshal(result, &r) == nil && slices.ContainsFunc(r.SupportedVersions, mcp.IsModernProtocol)
}

// ErrServerCancelled is the cause when the server sends notifications/cancelled.
var ErrServerCancelled = errors.New("the server cancelled the request")

// inbound tracks the server's requests in flight so notifications/cancelled
// can end their contexts. A cancellation may overtake its request; it is
// kept until the request starts.
type inbound struct {
	mu      sync.Mutex
	pending map[string]context.CancelCauseFunc
	early   map[string]bool
}

func newInbound() *inbound {
	return &inbound{pending: map[string]context.CancelCauseFunc{}, early: map[string]bool{}}
}

// begin registers request id; its context ends on notifications/cancelled.
func (in *inbound) begin(parent context.Context, id string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	in.mu.Lock()
	in.pending[id] = cancel
	if in.early[id] {
		delete(in.early, id)
		cancel(ErrServerCancelled)
	}
	in.mu.Unlock()
	return ctx, func() {
		in.mu.Lock()
		delete(in.pending, id)
		in.mu.Unlock()
		cancel(nil)
	}
}

// cancelled handles the params of notifications/cancelled.
func (in *inbound) cancelled(params map[string]any) {
	raw, err := json.Marshal(params["requestId"])
	if err != nil {
		return
	}
	var id mcp.RequestId
	if json.Unmarshal(raw, &id) != nil || id.IsNil() {
		return
	}
	cause := ErrServerCancelled
	if reason, ok := params["reason"].(string); ok && reason != "" {
		cause = errors.Join(ErrServerCancelled, errors.New(reason))
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if cancel, ok := in.pending[id.String()]; ok {
		cancel(cause)
	} else if len(in.early) < maxEarlyCancels {
		in.early[id.String()] = true
	}
}

// maxEarlyCancels bounds what a server can make us remember with
// cancellations of requests it never sends.
const maxEarlyCancels = 256

// rawRequests holds what a tap read of the requests the wire answers
// itself (elicitation/create, and those mcp-go cannot decode), by
// requestKey, from the moment the tap reads them until the wire answers them.
// A server that reuses an id while the first request waits gets its
// requests' bytes back in the order it sent them.
type rawRequests struct {
	mu sync.Mutex
	m  map[string][]tapped
}

// tapped is one request as a tap read it: its params, or the refusal of
// a request too large to keep.
type tapped struct {
	params  json.RawMessage
	refused *RPCError
}

// tappedFrom is a request of size bytes whose head h a tap read from the
// first kept of them: its params, or its refusal when the tap cut it.
func tappedFrom(h head, kept, size int) tapped {
	if size > kept {
		return tapped{refused: tooLarge(size)}
	}
	return tapped{params: h.params}
}

// requestKey tells apart requests with the same id but different methods.
func requestKey(method string, id mcp.RequestId) string { return method + " " + id.String() }

func newRawRequests() *rawRequests { return &rawRequests{m: map[string][]tapped{}} }

func (r *rawRequests) put(key string, t tapped) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.m[key] = append(r.m[key], t)
}

func (r *rawRequests) take(key string) (tapped, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	q := r.m[key]
	if len(q) == 0 {
		return tapped{}, false
	}
	if len(q) == 1 {
		delete(r.m, key)
	} else {
		r.m[key] = q[1:]
	}
	return q[0], true
}

// len is how many requests wait to be taken.
func (r *rawRequests) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, q := range r.m {
		n += len(q)
	}
	return n
}

// lineTap reads newline-delimited JSON-RPC (stdio) before the transport
// can decode it. It keeps each elicitation/create request's params for the
// wire and hands mcp-go only a stub with the id, which it always decodes:
// mcp-go drops a line it cannot decode (a number beyond float64, nesting
// past 10,000) and the server would wait for ever. For the same reason any
// other request mcp-go cannot decode is kept as its refusal, behind a stub.
// A line longer than link.MaxMessage is never held: it is read to its end
// for its envelope (see oversized), a request in it refused behind a stub,
// an answer replaced by an error answer.
type lineTap struct {
	br     *bufio.Reader
	out    []byte     // what mcp-go reads next
	line   []byte     // the line read so far, while within link.MaxMessage
	size   int        // the line's length so far
	cut    *oversized // the line, once over link.MaxMessage
	err    error      // why the stream ended
	raw    *rawRequests
	log    *slog.Logger
	closed func(error) // the server's side of the stream ended
}

func newLineTap(r io.Reader, raw *rawRequests, log *slog.Logger, closed func(error)) *lineTap {
	return &lineTap{br: bufio.NewReaderSize(r, 64<<10), raw: raw, log: log, closed: closed}
}

func (t *lineTap) Read(p []byte) (int, error) {
	for len(t.out) == 0 {
		if t.err != nil {
			return 0, io.EOF
		}
		chunk, err := t.br.ReadSlice('\n')
		t.take(chunk, err == nil)
		if err != nil && err != bufio.ErrBufferFull {
			if t.size > 0 { // a last line without its newline
				t.end()
			}
			if err == io.EOF {
				err = ErrServerClosed
			}
			t.err = err
			t.closed(err)
		}
	}
	n := copy(p, t.out)
	t.out = t.out[n:]
	return n, nil
}

// take reads the next chunk of a line, the last one if it ends the line.
func (t *lineTap) take(chunk []byte, ends bool) {
	t.size += len(chunk)
	length := t.size // without the newline
	if ends {
		length--
	}
	switch {
	case t.cut != nil:
		t.cut.env.write(chunk)
	case length > link.MaxMessage:
		t.cut = &oversized{}
		t.cut.env.write(t.line)
		t.cut.env.write(chunk)
		t.line = nil // let the long line's buffer go
	default:
		t.line = append(t.line, chunk...)
	}
	if t.cut != nil {
		if answer := t.cut.reply(false); answer != nil {
			t.emit(append(answer, '\n'))
		}
	}
	if ends {
		t.end()
	}
}

// end ends the line read so far.
func (t *lineTap) end() {
	line, size, cut := t.line, t.size, t.cut
	t.line, t.size, t.cut = nil, 0, nil
	if cut != nil {
		t.emit(t.afterCut(cut, size))
	} else {
		t.emit(t.observe(line))
	}
}

// emit hands b on to mcp-go after what it has not read yet.
func (t *lineTap) emit(b []byte) {
	if len(t.out) == 0 {
		t.out = b
	} else {
		t.out = append(t.out, b...)
	}
}

// observe returns what mcp-go gets of a line within link.MaxMessage.
func (t *lineTap) observe(line []byte) []byte {
	h := readHead(line)
	method := h.Method()
	if method == "" || h.id == nil {
		return line
	}
	id, ok := h.ID()
	if !ok {
		t.log.Warn("dropped a request whose id cannot be read: it gets no answer", "method", method, "bytes", len(line))
		return nil
	}
	switch {
	case method == string(mcp.MethodElicitationCreate):
		t.raw.put(requestKey(method, id), tapped{params: h.params})
	case json.Valid(line) && h.badNumber == nil:
		return line // mcp-go decodes it
	default:
		refused := CheckParams(h.params)
		if refused == nil { // the params are fine, the rest of the message is not
			refused = notJSON()
		}
		t.log.Warn("refusing a request mcp-go cannot decode", "method", method, "reason", refused.Message)
		t.raw.put(requestKey(method, id), tapped{refused: refused})
	}
	return stub(id, method)
}

// afterCut returns what mcp-go gets, at its end, of a line of size bytes
// over link.MaxMessage: the stub of a request, now refused, or the error
// answer unless it went already.
func (t *lineTap) afterCut(o *oversized, size int) []byte {
	id, method, answer := o.end(t.log, size)
	switch {
	case method != "":
		t.raw.put(requestKey(method, id), tapped{refused: tooLarge(size)})
		return stub(id, method)
	case answer != nil:
		return append(answer, '\n')
	}
	return nil
}

// stub is the line mcp-go gets in place of a request the wire answers.
func stub(id mcp.RequestId, method string) []byte {
	b, _ := json.Marshal(transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: id, Method: method, Params: struct{}{}})
	return append(b, '\n')
}

// ErrServerClosed is the cause when a stdio server closes its output.
var ErrServerClosed = errors.New("the server closed the connection")
