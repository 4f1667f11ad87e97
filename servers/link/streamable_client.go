package link

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"mime"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// Headers of the Streamable HTTP transport.
const (
	headerSession     = "Mcp-Session-Id"
	headerVersion     = "MCP-Protocol-Version"
	headerMethod      = "Mcp-Method"
	headerName        = "Mcp-Name"
	headerLastEventID = "Last-Event-ID"
)

// metaVersion is the _meta key carrying a request's protocol version from
// revision 2026-07-28 on, where there is no initialize.
const metaVersion = "io.modelcontextprotocol/protocolVersion"

// Bounds on reconnecting a dropped stream.
const (
	maxRetries   = 5
	firstBackoff = 100 * time.Millisecond
	maxBackoff   = 5 * time.Second
	deleteWait   = 2 * time.Second
	getOpenWait  = 2 * time.Second // see startGet
)

// StreamableClient is a Link to a server over the MCP Streamable HTTP
// transport (revisions 2025-03-26 on). Write POSTs each message; what the
// server sends back on the POST's response, on a resumed stream and on the
// standalone GET stream comes out of Read. It learns the session id and
// the protocol version from the messages it carries and sends them on.
type StreamableClient struct {
	url     string
	headers map[string]string
	hc      *http.Client
	log     *slog.Logger
	in      *inbox

	ctx    context.Context // ends every stream at Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu         sync.Mutex
	session    string
	version    string
	initKey    string // id of the initialize request in flight, as IDKey
	getStarted bool
	closed     bool
	flights    map[string]*flight       // requests whose answer is being read, by IDKey
	listKeys   map[string]bool          // tools/list requests in flight, by IDKey
	params     map[string][]paramHeader // tool → parameters it mirrors into headers
	listed     bool                     // a tools/list has been answered
	excluded   map[string]string        // tools left out for their x-mcp-header marks, with why
	ownIDs     int                      // requests of its own sent so far

	listing sync.Mutex // held while listing the tools for a tools/call
}

// flight is a request whose response stream is open.
type flight struct {
	cancel    context.CancelFunc // closes the stream
	cancelled bool               // by the host: answer nothing more
}

// NewStreamableClient returns a Link to the MCP endpoint at url, sending
// headers (from the server's configuration) with every request. hc nil
// means http.DefaultClient; its Timeout must be 0, since streams last.
func NewStreamableClient(url string, headers map[string]string, hc *http.Client) *StreamableClient {
	if hc == nil {
		hc = http.DefaultClient
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &StreamableClient{
		url: url, headers: headers, hc: hc, log: slog.Default(),
		in: newInbox(), ctx: ctx, cancel: cancel,
		flights:  make(map[string]*flight),
		listKeys: make(map[string]bool), params: make(map[string][]paramHeader),
		excluded: make(map[string]string),
	}
}

// SetLogger sends what c reports (tools left out for their x-mcp-header
// marks, a GET stream given up) to log rather than slog's default; call
// it before the first Write.
func (c *StreamableClient) SetLogger(log *slog.Logger) { c.log = log }

func (c *StreamableClient) Read() (Message, error) { return c.in.read() }

// Write POSTs m and returns once the server has answered with a status.
// A failure to deliver a request becomes an error response to it, from
// Read, and Write returns nil: the host gets its answer either way. A
// failure to deliver a notification or response is Write's error.
func (c *StreamableClient) Write(ctx context.Context, m Message) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return net.ErrClosed
	}
	if m.IsRequest() && m.Method == "initialize" {
		c.initKey = m.Key()
	}
	if m.IsRequest() && m.Method == "tools/list" {
		c.listKeys[m.Key()] = true
	}
	if v := metaProtocolVersion(m); v != "" {
		c.version = v
	}
	session, version := c.session, c.version
	c.mu.Unlock()

	if m.IsRequest() && m.Method == "tools/call" && isSessionless(version) {
		if why := c.knowTool(ctx, m, session, version); why != "" {
			c.in.put(c.ctx, errorResponse(m.ID, jsonrpc.CodeInvalidParams, why), nil)
			return nil
		}
	}
	if m.Method == "notifications/cancelled" && isSessionless(version) {
		// From 2026-07-28 a request is cancelled over HTTP by closing its
		// stream; the notification is for stdio only.
		c.cancelFlight(m)
		return nil
	}
	resp, err := c.post(ctx, m, session, version)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return c.fail(m, fmt.Errorf("cannot reach the server: %w", err))
	}
	if s := resp.Header.Get(headerSession); s != "" {
		c.mu.Lock()
		if c.session == "" {
			c.session = s
		}
		c.mu.Unlock()
	}
	if resp.StatusCode >= 300 {
		body := errorBody(resp)
		err := statusError(resp, body, session)
		if !m.IsRequest() {
			return err
		}
		answer, ok := serverError(body, m)
		if !ok {
			answer = errorResponse(m.ID, jsonrpc.CodeServer, err.Error())
		}
		if resp.StatusCode >= 400 {
			answer.Status = resp.StatusCode
		}
		answer.Cause = err
		c.deliver(answer, m.ID, responseOf(resp))
		return nil
	}
	if m.Method == "notifications/initialized" {
		c.startGet(ctx)
	}
	if !m.IsRequest() {
		// 202 Accepted, or a body that carries nothing for anyone.
		resp.Body.Close()
		return nil
	}
	key := m.Key()
	c.mu.Lock()
	c.flights[key] = &flight{cancel: resp.Body.(*cancelBody).cancel}
	c.mu.Unlock()
	if !c.spawn(func() {
		defer c.land(key)
		defer resp.Body.Close()
		c.readResponse(m, resp)
	}) {
		resp.Body.Close()
		return net.ErrClosed
	}
	return nil
}

// spawn runs f in a goroutine Close waits for, unless c is closed.
func (c *StreamableClient) spawn(f func()) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		f()
	}()
	return true
}

// post sends one message. The request lives on after Write returns, so it
// hangs off c.ctx; ctx only bounds the wait for the status.
func (c *StreamableClient) post(ctx context.Context, m Message, session, version string) (*http.Response, error) {
	rctx, cancel := context.WithCancel(c.ctx)
	stop := context.AfterFunc(ctx, cancel)
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, c.url, bytes.NewReader(m.Raw))
	if err != nil {
		stop()
		cancel()
		return nil, err
	}
	c.setHeaders(req.Header, session, version)
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if m.Method != "" {
		req.Header.Set(headerMethod, m.Method)
		if name := paramsName(m); name != "" {
			req.Header.Set(headerName, name)
		}
		for k, v := range c.paramHeaders(m) {
			req.Header.Set(k, v)
		}
	}
	resp, err := c.hc.Do(req)
	if !stop() && err == nil {
		// ctx ended just as the status came: the body is cancelled.
		resp.Body.Close()
		cancel()
		return nil, ctx.Err()
	}
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// cancelBody releases its request's context when the body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// setHeaders puts the configured headers and the session's on h; the
// transport's own win over configured ones of the same name.
func (c *StreamableClient) setHeaders(h http.Header, session, version string) {
	for k, v := range c.headers {
		h.Set(k, v)
	}
	if session != "" {
		h.Set(headerSession, session)
	}
	if version != "" {
		h.Set(headerVersion, version)
	}
}

// fail reports that m could not be delivered: as an error response from
// Read if m is a request, else as the returned error.
func (c *StreamableClient) fail(m Message, err error) error {
	if !m.IsRequest() {
		return err
	}
	if c.isCancelled(m.Key()) {
		return nil
	}
	answer := errorResponse(m.ID, jsonrpc.CodeServer, err.Error())
	answer.Cause = err
	c.in.put(c.ctx, answer, nil)
	return nil
}

// cancelFlight closes the response stream of the request a
// notifications/cancelled names, if it is still open.
func (c *StreamableClient) cancelFlight(m Message) {
	var v struct {
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(m.Raw, &v) != nil || v.Params.RequestID == nil {
		return
	}
	c.mu.Lock()
	f := c.flights[IDKey(v.Params.RequestID)]
	if f != nil {
		f.cancelled = true
	}
	c.mu.Unlock()
	if f != nil {
		f.cancel()
	}
}

// isCancelled reports whether the host cancelled the request with key.
func (c *StreamableClient) isCancelled(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.flights[key]
	return f != nil && f.cancelled
}

// land forgets a request whose response stream has ended.
func (c *StreamableClient) land(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.flights, key)
}

// isSessionless reports whether version is 2026-07-28 or later, the
// revisions without sessions, GET streams or resumption.
func isSessionless(version string) bool {
	return datedVersion.MatchString(version) && version >= sessionlessVersion
}

// serverError is the JSON-RPC error response an HTTP error status's body
// holds for request req, as the server wrote it. Servers that refuse a
// request before reading it leave its id null: such an error keeps its
// bytes and answers req through Related. It reports false if the body
// holds none.
func serverError(body []byte, req Message) (Message, bool) {
	m, err := Parse(bytes.TrimSpace(body))
	if err != nil || !m.IsResponse() {
		return Message{}, false
	}
	if m.ID != nil {
		return m, m.Key() == req.Key()
	}
	m.Related = req.ID
	return m, true
}

// maxErrorBody bounds how much of an error status's body is read.
const maxErrorBody = 64 << 10

// errorBody reads the start of an error status's body and closes it.
func errorBody(resp *http.Response) []byte {
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	return b
}

// StatusError is an HTTP error status a client Link got for a message,
// described with an excerpt of the body.
type StatusError struct {
	Code int
	Text string
}

func (e *StatusError) Error() string { return e.Text }

// statusError describes an HTTP error status with an excerpt of its body.
func statusError(resp *http.Response, body []byte, session string) error {
	msg := fmt.Sprintf("server answered HTTP %s", resp.Status)
	if resp.StatusCode == http.StatusNotFound && session != "" {
		msg = fmt.Sprintf("the server's session %s has expired (HTTP %s)", session, resp.Status)
	}
	if b := bytes.TrimSpace(body); len(b) > 0 {
		msg += ": " + excerpt(b)
	}
	return &StatusError{Code: resp.StatusCode, Text: msg}
}

// readResponse passes on what the server sent in answer to the POST of
// request m, making up an answer if the server did not send one.
func (c *StreamableClient) readResponse(m Message, resp *http.Response) {
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusNoContent:
		c.fail(m, fmt.Errorf("server accepted the request (HTTP %s) but sent no response", resp.Status))
	case ct == "application/json":
		c.readJSON(m, resp)
	case ct == "text/event-stream":
		c.readStream(m, resp)
	default:
		c.fail(m, fmt.Errorf("server answered with content type %q, neither JSON nor an event stream", ct))
	}
}

// readJSON passes on a JSON body: one message or a batch.
func (c *StreamableClient) readJSON(req Message, resp *http.Response) {
	b, err := readBody(resp.Body)
	if err != nil {
		var bad *BadMessage
		if errors.As(err, &bad) {
			// Passed on for the record; the host still needs an answer.
			c.in.put(c.ctx, Message{}, err)
		}
		c.fail(req, fmt.Errorf("reading the server's response: %w", err))
		return
	}
	ms, errs := parseBody(b)
	answered, from := false, responseOf(resp)
	for _, m := range ms {
		answered = c.deliver(m, req.ID, from) || answered
	}
	for _, err := range errs {
		c.in.put(c.ctx, Message{}, err)
	}
	if !answered && len(errs) == 0 {
		c.fail(req, errors.New("the server's response did not answer the request"))
	}
}

// deliver passes m, which came in the response from, on with Related and
// HTTP set, learning the protocol version from the answer to initialize.
// It reports whether m answers the request with id related.
func (c *StreamableClient) deliver(m Message, related json.RawMessage, from *Response) bool {
	m.Related, m.HTTP = related, from
	answers := m.IsResponse() && related != nil && m.Key() == IDKey(related)
	if m.IsResponse() {
		c.mu.Lock()
		if c.listKeys[m.Key()] {
			delete(c.listKeys, m.Key())
			m = c.noteTools(m)
		}
		if c.initKey != "" && m.Key() == c.initKey {
			c.initKey = ""
			if v := resultProtocolVersion(m); v != "" {
				c.version = v
			}
		}
		c.mu.Unlock()
	}
	c.in.put(c.ctx, m, nil)
	return answers
}

// readStream passes on an SSE response to request req, resuming it with
// GET and Last-Event-ID when it breaks before the response if the server
// gave event ids, and making up an answer when it cannot.
func (c *StreamableClient) readStream(req Message, resp *http.Response) {
	var lastID string
	var retry time.Duration
	body, from := resp.Body, responseOf(resp)
	for attempt := 0; ; {
		answered, got, err := c.readEvents(newEventReader(body), req.ID, from, &lastID, &retry)
		body.Close()
		if answered || c.ctx.Err() != nil || c.isCancelled(req.Key()) {
			return
		}
		if got {
			attempt = 0
		}
		if lastID == "" || attempt >= maxRetries {
			why := "the server's event stream ended without a response to the request"
			if err != nil && err != io.EOF {
				why = fmt.Sprintf("the server's event stream broke before its response to the request: %v", err)
			}
			c.fail(req, errors.New(why))
			return
		}
		attempt++
		if !c.sleep(backoff(attempt, retry)) {
			return
		}
		resp, err := c.get(lastID)
		if err != nil || resp.StatusCode != http.StatusOK {
			if err == nil {
				resp.Body.Close()
			}
			body = io.NopCloser(strings.NewReader(""))
			continue
		}
		body, from = resp.Body, responseOf(resp)
	}
}

// readEvents passes on the messages of one event stream, the body of the
// response from, until it ends. It reports whether the response to the
// request with id related came, and whether any event came.
func (c *StreamableClient) readEvents(r *eventReader, related json.RawMessage, from *Response, lastID *string, retry *time.Duration) (answered, got bool, err error) {
	for {
		ev, err := r.next()
		if err != nil {
			return false, got, err
		}
		got = true
		if ev.HasID {
			*lastID = ev.ID
		}
		if ev.Retry > 0 {
			*retry = ev.Retry
		}
		if (ev.Name != "" && ev.Name != "message") || (ev.Size == 0 && len(bytes.TrimSpace(ev.Data)) == 0) {
			continue
		}
		m, err := ev.message()
		if err != nil {
			c.in.put(c.ctx, Message{}, err)
			continue
		}
		if c.deliver(m, related, from) {
			return true, true, nil
		}
	}
}

// get opens a GET stream, resuming after lastID when it is not "".
func (c *StreamableClient) get(lastID string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(c.ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.setHeaders(req.Header, c.session, c.version)
	c.mu.Unlock()
	req.Header.Set("Accept", "text/event-stream")
	if lastID != "" {
		req.Header.Set(headerLastEventID, lastID)
	}
	return c.hc.Do(req)
}

// startGet opens the standalone GET stream once, after initialization,
// and returns once the server has answered the GET, or getOpenWait or ctx
// has passed: the host's next request goes after it. A server may send
// requests unrelated to any POST (an elicitation, say) only on that
// stream, and servers such as the TypeScript SDK's drop them while it is
// not open: a tools/call that overtook the GET lost its elicitation.
func (c *StreamableClient) startGet(ctx context.Context) {
	c.mu.Lock()
	start := !c.getStarted && !c.closed && (c.session != "" || c.version != "")
	c.getStarted = c.getStarted || start
	c.mu.Unlock()
	if !start {
		return
	}
	opened := make(chan struct{})
	if !c.spawn(func() { c.listen(opened) }) {
		return
	}
	t := time.NewTimer(getOpenWait)
	defer t.Stop()
	select {
	case <-opened:
	case <-t.C:
	case <-ctx.Done():
	case <-c.ctx.Done():
	}
}

// listen keeps the standalone GET stream open until Close, reconnecting
// with Last-Event-ID when it drops, a bounded number of times in a row.
// 405 means the server has no such stream, which is fine. opened is
// closed once the first GET has its answer, whatever it is.
func (c *StreamableClient) listen(opened chan<- struct{}) {
	var lastID string
	var retry time.Duration
	for attempt := 0; attempt <= maxRetries; attempt++ {
		if attempt > 0 && !c.sleep(backoff(attempt, retry)) {
			return
		}
		resp, err := c.get(lastID)
		if opened != nil {
			close(opened)
			opened = nil
		}
		if c.ctx.Err() != nil {
			if err == nil {
				resp.Body.Close()
			}
			return
		}
		if err != nil {
			c.log.Debug("mcp GET stream", "url", c.url, "err", err)
			continue
		}
		ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		switch {
		case resp.StatusCode == http.StatusMethodNotAllowed:
			resp.Body.Close()
			return
		case resp.StatusCode != http.StatusOK || ct != "text/event-stream":
			c.log.Debug("mcp GET stream refused", "url", c.url, "status", resp.Status, "type", ct)
			resp.Body.Close()
			continue
		}
		_, got, _ := c.readEvents(newEventReader(resp.Body), nil, responseOf(resp), &lastID, &retry)
		resp.Body.Close()
		if got {
			attempt = 0
		}
	}
	c.log.Warn("mcp GET stream given up", "url", c.url, "attempts", maxRetries+1)
}

// sleep waits d, or until Close; it reports whether the wait ran out.
func (c *StreamableClient) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-c.ctx.Done():
		return false
	}
}

// backoff is the wait before the attempt-th retry: the server's retry
// field if it sent one, else doubling from firstBackoff, up to maxBackoff.
func backoff(attempt int, retry time.Duration) time.Duration {
	if retry > 0 {
		return min(retry, maxBackoff)
	}
	return min(firstBackoff<<(attempt-1), maxBackoff)
}

// Close ends the session with DELETE, best effort, ends every stream and
// makes Read return io.EOF.
func (c *StreamableClient) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	session, version := c.session, c.version
	c.mu.Unlock()

	c.cancel()
	c.in.close()
	if session != "" {
		ctx, cancel := context.WithTimeout(context.Background(), deleteWait)
		req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.url, nil)
		if err == nil {
			c.setHeaders(req.Header, session, version)
			if resp, err := c.hc.Do(req); err == nil {
				resp.Body.Close()
			}
		}
		cancel()
	}
	c.wg.Wait()
	return nil
}

// metaProtocolVersion is params._meta's protocol version of a request, as
// revision 2026-07-28 puts on every request; "" if it has none.
func metaProtocolVersion(m Message) string {
	if !m.IsRequest() || !bytes.Contains(m.Raw, []byte(metaVersion)) {
		return ""
	}
	var v struct {
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(m.Raw, &v) != nil {
		return ""
	}
	var s string
	json.Unmarshal(v.Params.Meta[metaVersion], &s)
	return headerSafe(s)
}

// resultProtocolVersion is the protocol version an initialize result
// agreed on; "" if it has none.
func resultProtocolVersion(m Message) string {
	var v struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	json.Unmarshal(m.Raw, &v)
	return headerSafe(v.Result.ProtocolVersion)
}

// paramHeaders are the Mcp-Param-* headers of a tools/call, for the
// parameters its tool's schema marked with x-mcp-header (2026-07-28): the
// bridge mirrors them itself, since a stdio host sends no headers.
func (c *StreamableClient) paramHeaders(m Message) map[string]string {
	if m.Method != "tools/call" {
		return nil
	}
	var v struct {
		Params struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal(m.Raw, &v) != nil {
		return nil
	}
	c.mu.Lock()
	hs := c.params[v.Params.Name]
	c.mu.Unlock()
	if len(hs) == 0 {
		return nil
	}
	return paramValues(hs, v.Params.Arguments)
}

// noteTools learns the x-mcp-header marks of the tools/list response m,
// and, from revision 2026-07-28 on, returns it without the tools whose
// marks break the rules: a client must leave them out, and the host sees
// the tools through the bridge. c.mu is held.
func (c *StreamableClient) noteTools(m Message) Message {
	marks := readToolMarks(resultOf(m))
	c.listed = true
	maps.Copy(c.params, marks.headers)
	if !isSessionless(c.version) || len(marks.invalid) == 0 {
		return m
	}
	tools := gjson.GetBytes(m.Raw, "result.tools")
	kept := []byte{'['}
	tools.ForEach(func(_, t gjson.Result) bool {
		name := t.Get("name").String()
		if why, bad := marks.invalid[name]; bad {
			c.log.Warn("a tool left out: its x-mcp-header marks break the rules of protocol 2026-07-28", "tool", name, "why", why)
			c.excluded[name] = why
			delete(c.params, name)
			return true
		}
		if len(kept) > 1 {
			kept = append(kept, ',')
		}
		kept = append(kept, t.Raw...)
		return true
	})
	raw, err := sjson.SetRawBytes(m.Raw, "result.tools", append(kept, ']'))
	if err == nil {
		m.Raw = raw
	}
	return m
}

// listTimeout bounds the listing a tools/call waits for to learn its
// tool's marks; the call itself may wait on a person much longer.
const listTimeout = 30 * time.Second

// maxListPages bounds the pages of tools a tools/call lists.
const maxListPages = 100

// knowTool makes sure c knows the x-mcp-header marks of the tool call
// names (revision 2026-07-28), so that call mirrors them into headers: a
// host that calls a tool before it lists the tools through the bridge, as
// it may when it keeps its list from an earlier session, would otherwise
// send none. Before any listing has been answered, it lists the tools
// itself, page by page until it finds the tool. It returns why the tool
// must not be called if the listing left it out, else "".
func (c *StreamableClient) knowTool(ctx context.Context, call Message, session, version string) string {
	name := gjson.GetBytes(call.Raw, "params.name").String()
	c.listing.Lock()
	defer c.listing.Unlock()
	c.mu.Lock()
	listed := c.listed
	c.mu.Unlock()
	if !listed {
		lctx, cancel := context.WithTimeout(ctx, listTimeout)
		err := c.listTools(lctx, call, name, session, version)
		cancel()
		if err != nil {
			c.log.Warn("listing the tools failed: the call goes without the headers of its x-mcp-header arguments", "tool", name, "err", err)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if why, bad := c.excluded[name]; bad {
		return fmt.Sprintf("the server's tool %q is not called: its x-mcp-header marks break the rules of protocol 2026-07-28 (%s)", name, why)
	}
	return ""
}

// listTools lists the server's tools with requests of c's own, which
// carry the protocol's _meta of call, until a page lists tool or the last
// page has come. The pages go to noteTools, not to the host.
func (c *StreamableClient) listTools(ctx context.Context, call Message, tool, session, version string) error {
	meta := map[string]json.RawMessage{}
	gjson.GetBytes(call.Raw, "params._meta").ForEach(func(k, v gjson.Result) bool {
		if strings.HasPrefix(k.String(), "io.modelcontextprotocol/") {
			meta[k.String()] = json.RawMessage(v.Raw)
		}
		return true
	})
	cursors := map[string]bool{}
	cursor := ""
	for range maxListPages {
		params := map[string]any{"_meta": meta}
		if cursor != "" {
			params["cursor"] = cursor
		}
		c.mu.Lock()
		c.ownIDs++
		id := fmt.Sprintf(`"elicitdesk-link-tools-%d"`, c.ownIDs)
		c.mu.Unlock()
		raw, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": "tools/list", "params": params})
		if err != nil {
			return err
		}
		m, err := Parse(raw)
		if err != nil {
			return err
		}
		answer, err := c.ask(ctx, m, session, version)
		if err != nil {
			return err
		}
		if e := gjson.GetBytes(answer.Raw, "error"); e.Exists() {
			return fmt.Errorf("the server answered tools/list with an error: %s", excerpt([]byte(e.Raw)))
		}
		c.mu.Lock()
		c.noteTools(answer)
		c.mu.Unlock()
		marks := readToolMarks(resultOf(answer))
		if slices.Contains(marks.listed, tool) || marks.next == "" || cursors[marks.next] {
			return nil
		}
		cursors[marks.next] = true
		cursor = marks.next
	}
	return nil
}

// ask POSTs request m, one of c's own, and returns the server's answer;
// whatever else comes on its stream goes on to Read as usual.
func (c *StreamableClient) ask(ctx context.Context, m Message, session, version string) (Message, error) {
	resp, err := c.post(ctx, m, session, version)
	if err != nil {
		return Message{}, err
	}
	defer resp.Body.Close()
	stop := context.AfterFunc(ctx, resp.Body.(*cancelBody).cancel) // the stream may outlast ctx
	defer stop()
	if resp.StatusCode >= 300 {
		return Message{}, statusError(resp, errorBody(resp), session)
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	var answer Message
	found := func(got Message) bool {
		if got.IsResponse() && got.Answers() == m.Key() {
			answer = got
			return true
		}
		c.deliver(got, nil, responseOf(resp))
		return false
	}
	switch ct {
	case "application/json":
		b, err := readBody(resp.Body)
		if err != nil {
			return Message{}, err
		}
		ms, _ := parseBody(b)
		for _, got := range ms {
			if found(got) {
				return answer, nil
			}
		}
	case "text/event-stream":
		r := newEventReader(resp.Body)
		for {
			ev, err := r.next()
			if err != nil {
				return Message{}, fmt.Errorf("the server's event stream ended before its answer: %w", err)
			}
			if (ev.Name != "" && ev.Name != "message") || len(bytes.TrimSpace(ev.Data)) == 0 {
				continue
			}
			if got, err := ev.message(); err == nil && found(got) {
				return answer, nil
			}
		}
	default:
		return Message{}, fmt.Errorf("the server answered with content type %q", ct)
	}
	return Message{}, errors.New("the server's response did not answer the request")
}

// resultOf is a response's result.
func resultOf(m Message) json.RawMessage {
	var v struct {
		Result json.RawMessage `json:"result"`
	}
	json.Unmarshal(m.Raw, &v)
	return v.Result
}

// paramsName is the name or uri of a tools/call, prompts/get or
// resources/read request, or the taskId of a tasks extension's tasks/get,
// tasks/update or tasks/cancel (so that a load balancer routes it to the
// server holding the task), for the Mcp-Name header; "" if it cannot go
// in a header as it is.
func paramsName(m Message) string {
	switch m.Method {
	case "tools/call", "prompts/get", "resources/read", "tasks/get", "tasks/update", "tasks/cancel":
	default:
		return ""
	}
	var v struct {
		Params struct {
			Name   string `json:"name"`
			URI    string `json:"uri"`
			TaskID string `json:"taskId"`
		} `json:"params"`
	}
	json.Unmarshal(m.Raw, &v)
	name := v.Params.Name
	switch m.Method {
	case "resources/read":
		name = v.Params.URI
	case "tasks/get", "tasks/update", "tasks/cancel":
		name = v.Params.TaskID
	}
	return headerValue(name)
}
