package servers

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/testkit/leaktest"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

// demoHTTP serves the demo server over Streamable HTTP on loopback.
func demoHTTP(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(server.NewStreamableHTTPServer(demo.NewServer()))
	t.Cleanup(srv.Close)
	return srv
}

// TestElicitationOverStreamableHTTP asks over Streamable HTTP, where the
// request travels in the tool call's event stream and the answer in a POST
// of our own, for each revision that has server-initiated requests.
func TestElicitationOverStreamableHTTP(t *testing.T) {
	srv := demoHTTP(t)
	for _, version := range []string{"2025-06-18", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			r := newQueued(DefaultLimits)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c, err := Dial(ctx, config.Server{Name: "web", URL: srv.URL, Transport: config.TransportHTTP, ProtocolVersion: version}, r.Router, quietLog())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			got := call(c, demo.ToolAskEveryField, nil)
			e := next(t, r)
			if keys := firstKeys(t, e.Schema); keys[0] != "name" || keys[1] != "email" {
				t.Fatalf("field order lost: %v", keys)
			}
			s, _ := forms.Parse(e.Schema)
			res, _, _ := forms.NewForm(s).Accept()
			e.Reply(res)
			if out := <-got; out.err != nil || !strings.Contains(out.text(), `"action":"accept"`) {
				t.Fatalf("%q %v", out.text(), out.err)
			}
		})
	}
}

// TestManagerNoticesRemoteServerGone checks that a Streamable HTTP server
// that disappears is reported failed, with the reason, and retried.
func TestManagerNoticesRemoteServerGone(t *testing.T) {
	srv := httptest.NewServer(server.NewStreamableHTTPServer(demo.NewServer()))
	m := NewManager(NewRouter(DefaultLimits, quietLog()), quietLog(), nil)
	m.pingEvery = 20 * time.Millisecond
	m.backoff = Backoff{Min: 10 * time.Millisecond, Max: 20 * time.Millisecond}
	defer m.Close()
	m.Apply(&config.File{Servers: []config.Server{{Name: "web", URL: srv.URL, Transport: config.TransportHTTP}}})
	waitFor(t, m, "ready", func() bool { return statusOf(m, "web").State == StateReady })
	srv.CloseClientConnections()
	srv.Close()
	waitFor(t, m, "failed", func() bool { return statusOf(m, "web").State == StateFailed })
	if st := statusOf(m, "web"); st.Err == nil {
		t.Errorf("failed without a reason: %+v", st)
	}
}

// legacySSE serves the legacy HTTP+SSE transport as the TypeScript SDK
// writes it: GET /sse streams, POST /message answers 202 and hands the
// message to post, whose replies (send) go down the stream.
func legacySSE(t *testing.T, post func(m message, send func(func(io.Writer)))) *httptest.Server {
	stream := make(chan func(io.Writer), 16)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sse", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: endpoint\ndata: /message?sessionId=s1\n\n")
		w.(http.Flusher).Flush()
		for {
			select {
			case write := <-stream:
				write(w)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	})
	mux.HandleFunc("POST /message", func(w http.ResponseWriter, r *http.Request) {
		var m message
		json.NewDecoder(r.Body).Decode(&m)
		w.WriteHeader(http.StatusAccepted)
		post(m, func(write func(io.Writer)) { stream <- write })
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// sseEvent is msg as one event of the stream.
func sseEvent(msg string) func(io.Writer) {
	return func(w io.Writer) { io.WriteString(w, "event: message\ndata: "+msg+"\n\n") }
}

// fakeSSEServer is a legacy HTTP+SSE server, as the TypeScript SDK writes
// them. On tools/call it first asks, with the same id as the call, which
// mcp-go v1.2.1's SSE client took for the call's response, and returns
// what it was answered. (mcp-go's own SSE server cannot ask at all.)
func fakeSSEServer(t *testing.T) *httptest.Server {
	answers := make(chan json.RawMessage, 1)
	return legacySSE(t, func(m message, send func(func(io.Writer))) {
		switch m.Method {
		case "":
			answers <- m.Result
		case "initialize":
			send(sseEvent(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"ts-style-sse","version":"1"}}}`))
		case "tools/call":
			go func() {
				send(sseEvent(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"method":"elicitation/create","params":{"message":"Who?","requestedSchema":{"type":"object","properties":{"who":{"type":"string"}}}}}`))
				text := "no answer"
				select {
				case a := <-answers:
					text = string(a)
				case <-time.After(20 * time.Second):
				}
				result, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
				send(sseEvent(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + string(result) + `}`))
			}()
		}
	})
}

// TestElicitationOverSSE is the regression test for mcp-go v1.2.1's SSE
// client taking a server's request for a response: the request must reach
// the person and the answer the server, even with the id of a pending call.
func TestElicitationOverSSE(t *testing.T) {
	srv := fakeSSEServer(t)
	r := newQueued(DefaultLimits)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := Dial(ctx, config.Server{Name: "sse", URL: srv.URL + "/sse", Transport: config.TransportSSE}, r.Router, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got := call(c, "who", nil)
	e := next(t, r)
	if e.Server.Name != "sse" || e.Message != "Who?" {
		t.Fatalf("elicitation %+v", e)
	}
	e.Reply(forms.Result{Action: forms.Accept, Content: []byte(`{"who":"Ada"}`)})
	if out := <-got; out.err != nil || !strings.Contains(out.text(), `"who":"Ada"`) {
		t.Fatalf("%q %v", out.text(), out.err)
	}
}

// TestElicitationOutsideAPost is the regression test for requests that a
// Streamable HTTP server sends when no POST of ours is open: they travel on
// the standalone GET stream, which mcp-go opens only when asked to.
func TestElicitationOutsideAPost(t *testing.T) {
	srv := server.NewMCPServer("later", "1")
	answered := make(chan string, 1)
	returned := make(chan struct{}) // the client has this call's result
	srv.AddTool(mcp.NewTool("ask_later"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		session := server.ClientSessionFromContext(ctx)
		go func() {
			<-returned // no POST of the client's is open now
			req := mcp.ElicitationRequest{}
			req.Params.Message = "A question after the call"
			req.Params.RequestedSchema = map[string]any{"type": "object", "properties": map[string]any{}}
			res, err := srv.RequestElicitation(srv.WithContext(context.Background(), session), req)
			if err != nil {
				answered <- err.Error()
				return
			}
			answered <- string(res.Action)
		}()
		return mcp.NewToolResultText("will ask later"), nil
	})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(srv))
	t.Cleanup(ts.Close)
	r := newQueued(DefaultLimits)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := Dial(ctx, config.Server{Name: "later", URL: ts.URL, Transport: config.TransportHTTP, ProtocolVersion: "2025-11-25"}, r.Router, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if out := <-call(c, "ask_later", nil); out.err != nil {
		t.Fatal(out.err)
	}
	close(returned)
	e := next(t, r)
	if e.Message != "A question after the call" {
		t.Fatalf("got %+v", e)
	}
	e.Reply(forms.Result{Action: forms.Decline})
	select {
	case got := <-answered:
		if got != "decline" {
			t.Fatalf("the server got %q", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the answer did not reach the server")
	}
}

// TestCloseEndsEveryGoroutine checks that a connection has ended every
// goroutine it started once Close returns, over stdio and Streamable HTTP,
// after elicitations both answered and left waiting.
func TestCloseEndsEveryGoroutine(t *testing.T) {
	srv := demoHTTP(t)
	for _, tc := range []struct {
		name string
		cfg  config.Server
	}{
		{"stdio", demoStdio(t)},
		// 2025-11-25: the demo server asks over HTTP only before 2026-07-28.
		{"streamable HTTP", config.Server{Name: "web", URL: srv.URL, Transport: config.TransportHTTP, ProtocolVersion: "2025-11-25"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ended := leaktest.Check(t)
			r := newQueued(DefaultLimits)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c, err := Dial(ctx, tc.cfg, r.Router, quietLog())
			if err != nil {
				t.Fatal(err)
			}
			answered := call(c, demo.ToolAskConfirm, nil)
			next(t, r).Reply(forms.Result{Action: forms.Decline})
			if out := <-answered; out.err != nil {
				t.Fatal(out.err)
			}
			waiting := call(c, demo.ToolAskConfirm, nil)
			next(t, r) // left unanswered: Close must end its answer
			if err := c.Close(); err != nil {
				t.Logf("close: %v", err)
			}
			<-waiting
			ended()
		})
	}
}

// TestModernOverStreamableHTTP checks that a Streamable HTTP session
// negotiates 2026-07-28, by default and pinned, and that its input
// requests reach the person: the transport's continuous listening, which
// mcp-go takes as needing an older revision, must not hold it back.
func TestModernOverStreamableHTTP(t *testing.T) {
	srv := demoHTTP(t)
	for _, pinned := range []string{"", "2026-07-28"} {
		t.Run("pinned "+pinned, func(t *testing.T) {
			r := newQueued(DefaultLimits)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c, err := Dial(ctx, config.Server{Name: "web", URL: srv.URL, Transport: config.TransportHTTP, ProtocolVersion: pinned}, r.Router, quietLog())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if got := c.ProtocolVersion(); got != "2026-07-28" {
				t.Fatalf("negotiated %s, want 2026-07-28", got)
			}
			got := call(c, demo.ToolInputRequired, nil)
			e := next(t, r)
			e.Reply(forms.Result{Action: forms.Decline})
			if out := <-got; out.err != nil || !strings.Contains(out.text(), "decline") {
				t.Fatalf("result %q %v", out.text(), out.err)
			}
		})
	}
}
