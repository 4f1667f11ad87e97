package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// testTimeout bounds every exchange. It is generous: nothing here comes near
// it unless something is broken.
const testTimeout = 20 * time.Second

// testVersions are the protocol revisions the in-process tests run on: the
// last one with the initialize handshake and the first with multi
// round-trip requests.
func testVersions() []string {
	return []string{mcp.ProtocolVersion20251125, mcp.ProtocolVersion20260728}
}

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// handlerFunc adapts a function to client.ElicitationHandler.
type handlerFunc func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)

func (f handlerFunc) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return f(ctx, req)
}

// reply answers an elicitation with action and content.
func reply(action mcp.ElicitationResponseAction, content any) handlerFunc {
	return func(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: action, Content: content}}, nil
	}
}

// recorder is the client's elicitation handler: it answers with the queued
// replies in turn and keeps every request it was given. An elicitation with
// no reply queued fails the call, so a test notices an unexpected question.
type recorder struct {
	mu      sync.Mutex
	replies []handlerFunc
	seen    []mcp.ElicitationRequest
}

func newRecorder(replies ...handlerFunc) *recorder {
	return &recorder{replies: replies}
}

func (r *recorder) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	r.mu.Lock()
	r.seen = append(r.seen, req)
	n := len(r.seen)
	var answer handlerFunc
	if n <= len(r.replies) {
		answer = r.replies[n-1]
	}
	r.mu.Unlock()
	if answer == nil {
		return nil, fmt.Errorf("unexpected elicitation #%d: %q", n, req.Params.Message)
	}
	return answer(ctx, req)
}

// expect queues more replies.
func (r *recorder) expect(replies ...handlerFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.replies = append(r.replies, replies...)
}

func (r *recorder) requests() []mcp.ElicitationRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]mcp.ElicitationRequest(nil), r.seen...)
}

// formAndURL declares both elicitation modes; mcp-go's client declares only
// form mode ({}) unless told otherwise.
func formAndURL() mcp.ClientCapabilities {
	return mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}}}
}

// connect starts an in-process client of a fresh demo server on version.
func connect(t *testing.T, version string, h client.ElicitationHandler, caps mcp.ClientCapabilities) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClientWithOptions(NewServer(),
		client.WithElicitationHandler(h),
		client.WithClientCapabilities(caps),
		client.WithProtocolVersion(version),
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	initialize(t, c, version)
	return c
}

func initialize(t *testing.T, c *client.Client, version string) *mcp.InitializeResult {
	t.Helper()
	ctx := testContext(t)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "demo-test", Version: "1.0.0"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ProtocolVersion != version {
		t.Fatalf("negotiated protocol %q, want %q", res.ProtocolVersion, version)
	}
	return res
}

func callTool(t *testing.T, c *client.Client, name string, args map[string]any) (*mcp.CallToolResult, error) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	return c.CallTool(testContext(t), req)
}

// mustCall calls a tool that must succeed, and returns the headline and the
// JSON body of its text.
func mustCall(t *testing.T, c *client.Client, name string, args map[string]any) (string, json.RawMessage) {
	t.Helper()
	res, err := callTool(t, c, name, args)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error %s", name, text(t, res))
	}
	return split(t, text(t, res))
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("result has %d contents, want 1: %+v", len(res.Content), res.Content)
	}
	tc, ok := res.Content[0].(mcp.TextContent)
	if !ok {
		t.Fatalf("result content is %T, want text", res.Content[0])
	}
	return tc.Text
}

// split cuts a report into its headline and its JSON.
func split(t *testing.T, s string) (string, json.RawMessage) {
	t.Helper()
	headline, body, ok := strings.Cut(s, "\n")
	if !ok || !json.Valid([]byte(body)) {
		t.Fatalf("result text is not a headline and JSON: %q", s)
	}
	return headline, json.RawMessage(body)
}

// sameJSON fails unless got and want encode the same value.
func sameJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want %s: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// field decodes one member of a JSON object.
func field(t *testing.T, raw []byte, path ...string) json.RawMessage {
	t.Helper()
	cur := json.RawMessage(raw)
	for _, name := range path {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(cur, &obj); err != nil {
			t.Fatalf("%s is not an object at %q: %v", raw, name, err)
		}
		next, ok := obj[name]
		if !ok {
			t.Fatalf("%s has no %q", cur, name)
		}
		cur = next
	}
	return cur
}

func str(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s is not a string: %v", raw, err)
	}
	return s
}

// keys returns the member names of a JSON object in the order written.
func keys(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("%s is not an object", raw)
	}
	var names []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return names
}

// rawSchema returns the requestedSchema of an elicitation as the server
// encoded it. In process the params arrive as the server built them, so
// encoding them again shows what any transport would carry.
func rawSchema(t *testing.T, req mcp.ElicitationRequest) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(req.Params)
	if err != nil {
		t.Fatal(err)
	}
	return field(t, b, "requestedSchema")
}

// rawCaller sends hand-made tools/call requests through a client's transport,
// for what mcp-go's client does by itself: reading the raw result, sending a
// chosen requestState.
type rawCaller struct {
	c       *client.Client
	version string
	caps    mcp.ClientCapabilities
	id      atomic.Int64
}

// call sends tools/call with params (name, arguments, requestState, ...),
// adding the _meta that 2026-07-28 requires.
func (r *rawCaller) call(t *testing.T, params map[string]any) *transport.JSONRPCResponse {
	t.Helper()
	if mcp.IsModernProtocol(r.version) {
		params["_meta"] = map[string]any{
			mcp.MetaKeyProtocolVersion:    r.version,
			mcp.MetaKeyClientCapabilities: r.caps,
		}
	}
	resp, err := r.c.GetTransport().SendRequest(testContext(t), transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(1000 + r.id.Add(1)),
		Method:  string(mcp.MethodToolsCall),
		Params:  params,
	})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// result returns the result of a call that must succeed.
func (r *rawCaller) result(t *testing.T, params map[string]any) json.RawMessage {
	t.Helper()
	resp := r.call(t, params)
	if resp.Error != nil {
		t.Fatalf("tools/call %v: error %d %s", params["name"], resp.Error.Code, resp.Error.Message)
	}
	return resp.Result
}

// notifications collects what the server notifies a client of.
type notifications struct {
	ch chan mcp.JSONRPCNotification
}

func listen(c *client.Client) *notifications {
	n := &notifications{ch: make(chan mcp.JSONRPCNotification, 64)}
	c.OnNotification(func(msg mcp.JSONRPCNotification) {
		select {
		case n.ch <- msg:
		default: // a test that floods it has failed already
		}
	})
	return n
}

// next waits for the next notification with method.
func (n *notifications) next(t *testing.T, method string) mcp.JSONRPCNotification {
	t.Helper()
	timeout := time.After(testTimeout)
	for {
		select {
		case msg := <-n.ch:
			if msg.Method == method {
				return msg
			}
		case <-timeout:
			t.Fatalf("no %s within %v", method, testTimeout)
		}
	}
}

// rawText returns the headline and JSON of a raw tools/call result's text.
func rawText(t *testing.T, result json.RawMessage) (string, json.RawMessage) {
	t.Helper()
	var r struct {
		ResultType string `json:"resultType"`
		Content    []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(result, &r); err != nil || len(r.Content) != 1 || r.Content[0].Type != "text" {
		t.Fatalf("result %s is not one text", result)
	}
	if r.ResultType == string(mcp.ResultTypeInputRequired) {
		t.Fatalf("result %s still asks for input", result)
	}
	return split(t, r.Content[0].Text)
}
