package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// toolCallWait is how long an SSE tool call may wait for its result: a
// person may be filling in a form the call is waiting on.
const toolCallWait = 24 * time.Hour

// httpWire is a wire over HTTP. mcp-go v1.2.1 gives the server's requests
// 30 seconds on Streamable HTTP and mistakes them for responses on SSE, so
// an sseTap takes them out of the event streams and this answers them with
// POSTs of its own, however long the person takes.
type httpWire struct {
	*wire
	log      *slog.Logger
	base     *http.Transport
	client   *http.Client
	endpoint func() string // where answers are POSTed
	headers  map[string]string

	mu      sync.Mutex
	version string
}

// SetProtocolVersion passes the negotiated version on (the transport puts it
// in a header) and keeps it for our own POSTs.
func (w *httpWire) SetProtocolVersion(version string) {
	if h, ok := w.Interface.(transport.HTTPConnection); ok {
		h.SetProtocolVersion(version)
	}
	w.mu.Lock()
	w.version = version
	w.mu.Unlock()
}

// Wrap wraps the HTTP transport every request of a wire goes through, as
// sign-in does to add its token; nil wraps nothing.
type Wrap func(http.RoundTripper) http.RoundTripper

// newHTTPWire starts a wire whose HTTP client hands the server's requests
// to it; the caller sets its transport and endpoint.
func newHTTPWire(headers map[string]string, wrap Wrap, log *slog.Logger) *httpWire {
	w := &httpWire{log: log, headers: headers, base: http.DefaultTransport.(*http.Transport).Clone()}
	var rt http.RoundTripper = w.base
	if wrap != nil {
		rt = wrap(rt)
	}
	// No client timeout: event streams and tool calls last as long as a person takes.
	w.client = &http.Client{Transport: &sseTap{base: rt, onRequest: w.goServe, log: log}}
	return w
}

// NewSSE returns the transport of an HTTP+SSE server at url; lost is
// called when its event stream ends.
func NewSSE(url string, headers map[string]string, wrap Wrap, answer AnswerFunc, lost func(error), log *slog.Logger) (transport.Interface, error) {
	w := newHTTPWire(headers, wrap, log)
	sse, err := transport.NewSSE(url, transport.WithHTTPClient(w.client), transport.WithHeaders(headers), transport.WithResponseTimeout(toolCallWait), transport.WithSSELogger(log))
	if err != nil {
		return nil, err
	}
	sse.SetConnectionLostHandler(lost)
	w.endpoint = func() string {
		if u := sse.GetEndpoint(); u != nil {
			return u.String()
		}
		return url
	}
	w.wire = newWire(sse, newRawRequests(), answer)
	return w, nil
}

// NewStreamableHTTP returns the transport of a Streamable HTTP server at url.
func NewStreamableHTTP(url string, headers map[string]string, wrap Wrap, answer AnswerFunc, log *slog.Logger) (transport.Interface, error) {
	w := newHTTPWire(headers, wrap, log)
	h, err := transport.NewStreamableHTTP(url, transport.WithHTTPBasicClient(w.client), transport.WithHTTPHeaders(headers), continuousListening(), transport.WithHTTPLogger(log))
	if err != nil {
		return nil, err
	}
	w.endpoint = func() string { return url }
	w.wire = newWire(h, newRawRequests(), answer)
	return w, nil
}

// continuousListening opens the standalone GET stream that a server's
// requests outside a POST need before 2026-07-28. mcp-go v1.2.1 deprecates
// the option because 2026-07-28 removed that stream, and a transport with
// it reports RequiresLegacyProtocol, which would keep every session on an
// older revision. But mcp-go opens the stream only for pre-2026-07-28
// sessions, so the option costs a modern session nothing:
// RequiresLegacyProtocol below says so, and this is the one place the
// deprecated option is used.
func continuousListening() transport.StreamableHTTPCOption {
	//lint:ignore SA1019 the stream is needed before 2026-07-28 and unused after; see above
	return transport.WithContinuousListening()
}

// RequiresLegacyProtocol reports false. Over Streamable HTTP, the GET
// stream of continuousListening is opened only for sessions that predate
// 2026-07-28, so any revision can be negotiated; mcp-go's SSE transport
// does not have the method, and false is what mcp-go assumes then.
func (w *httpWire) RequiresLegacyProtocol() bool { return false }

// Close closes the wire, then the idle connections its client kept: their
// goroutines would otherwise outlive it.
func (w *httpWire) Close() error {
	err := w.wire.Close()
	w.base.CloseIdleConnections()
	return err
}

// goServe answers a request of the server's in the background, as the wire
// it belongs to lives; a closed wire drops it.
func (w *httpWire) goServe(raw json.RawMessage, size int) {
	if !w.hold() {
		return
	}
	go func() {
		defer w.running.Done()
		w.serve(w.life, raw, size)
	}()
}

// serve answers one request of the server's, taken off an event stream:
// raw, or its head when it is longer (size bytes) than the tap keeps.
func (w *httpWire) serve(ctx context.Context, raw json.RawMessage, size int) {
	h := readHead(raw)
	method := h.Method()
	id, ok := h.ID()
	if !ok {
		w.log.Warn("dropped a request whose id cannot be read: it gets no answer", "method", method, "bytes", size)
		return
	}
	req := tappedFrom(h, len(raw), size)
	var resp *transport.JSONRPCResponse
	switch {
	case method == string(mcp.MethodElicitationCreate):
		resp = w.elicit(ctx, id, req)
	case req.refused != nil: // too long to read, whatever it asks
		resp = transport.NewJSONRPCErrorResponse(id, req.refused.Code, req.refused.Message, nil)
	case method == string(mcp.MethodPing):
		resp = &transport.JSONRPCResponse{JSONRPC: mcp.JSONRPC_VERSION, ID: id, Result: json.RawMessage(`{}`)}
	default:
		resp = transport.NewJSONRPCErrorResponse(id, mcp.METHOD_NOT_FOUND, "Elicit Desk does not handle "+method, nil)
	}
	if resp != nil {
		if err := w.post(ctx, resp); err != nil && ctx.Err() == nil {
			w.log.Warn("could not answer the server", "method", method, "err", err)
		}
	}
}

// post sends a response to the server with the headers the transport uses.
func (w *httpWire) post(ctx context.Context, resp *transport.JSONRPCResponse) error {
	body, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.endpoint(), bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range w.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if id := w.GetSessionId(); id != "" {
		req.Header.Set("Mcp-Session-Id", id)
	}
	w.mu.Lock()
	if w.version != "" {
		req.Header.Set("MCP-Protocol-Version", w.version)
	}
	w.mu.Unlock()
	res, err := w.client.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
	res.Body.Close()
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("the server answered our response with %s", res.Status)
	}
	return nil
}

// isRequest reports whether raw is a JSON-RPC request: a method and an id,
// whatever its params hold, so that no request reaches mcp-go, which
// drops what it cannot decode.
func isRequest(raw json.RawMessage) bool {
	h := readHead(raw)
	return h.Method() != "" && h.id != nil && string(h.id) != "null"
}
