package servers

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// fakeServer is a scripted MCP server on pipes, for what no real server
// does on purpose: answering discovery like a lenient legacy server, or
// sending a request a client must refuse.
type fakeServer struct {
	t      testing.TB
	in     *bufio.Reader  // what the client sends
	out    io.WriteCloser // what the server sends
	client struct {
		r io.Reader
		w io.WriteCloser
	}
}

func newFakeServer(t testing.TB) *fakeServer {
	toServerR, toServerW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	f := &fakeServer{t: t, in: bufio.NewReader(toServerR), out: toClientW}
	f.client.r, f.client.w = toClientR, toServerW
	t.Cleanup(func() { toServerR.Close(); toClientW.Close() })
	return f
}

type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *jsonrpc.Error  `json:"error,omitempty"`
}

func (f *fakeServer) read() message {
	line, err := f.in.ReadBytes('\n')
	if err != nil {
		f.t.Errorf("fake server read: %v", err)
		return message{}
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		f.t.Errorf("fake server got %s: %v", line, err)
	}
	return m
}

func (f *fakeServer) send(v string) {
	if _, err := io.WriteString(f.out, v+"\n"); err != nil {
		f.t.Errorf("fake server write: %v", err)
	}
}

// serveLegacy answers like a 2025-06-18 server that replies {} to every
// method it does not know, server/discover included, until it sees want.
func (f *fakeServer) serveLegacy(want string) message {
	for {
		m := f.read()
		switch {
		case m.Method == want:
			return m
		case m.Method == "initialize":
			f.send(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"legacy","version":"1"}}}`)
		case m.ID != nil && m.Method != "":
			f.send(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}`)
		case m.Method == "":
			return m // a response to one of our requests
		}
	}
}

// dialFake connects to f after a legacy handshake, which is over when it returns.
func dialFake(t *testing.T, f *fakeServer) (*Conn, *queued) {
	t.Helper()
	handshake := make(chan struct{})
	go func() {
		defer close(handshake)
		f.serveLegacy("notifications/initialized")
	}()
	r := newQueued(DefaultLimits)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := DialPipe(ctx, config.Server{Name: "fake", Command: "fake", Transport: config.TransportStdio}, f.client.r, f.client.w, r.Router, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	select {
	case <-handshake:
	case <-time.After(10 * time.Second):
		t.Fatalf("no legacy handshake: the client took the server for %s", c.ProtocolVersion())
	}
	return c, r
}

// TestLegacyServerNotTakenForModern is the regression test for mcp-go
// v1.2.1 taking any answer to server/discover as a 2026-07-28 server.
func TestLegacyServerNotTakenForModern(t *testing.T) {
	f := newFakeServer(t)
	c, _ := dialFake(t, f)
	if v := c.ProtocolVersion(); v != "2025-06-18" {
		t.Fatalf("negotiated %q with a legacy server", v)
	}
}

// TestRefusedElicitations checks the JSON-RPC errors a server gets for
// requests no form can show: -32602 with the reason, not mcp-go's -32603.
func TestRefusedElicitations(t *testing.T) {
	tests := []struct {
		name, params, reason string
	}{
		{"unsupported mode", `{"mode":"voice","message":"say it"}`, "not supported"},
		{"fatal schema", `{"message":"m","requestedSchema":{"type":"object","properties":{"addr":{"type":"object"}}}}`, "#/properties/addr/type"},
		{"no message", `{"requestedSchema":{"type":"object","properties":{}}}`, "no message"},
	}
	f := newFakeServer(t)
	dialFake(t, f)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := json.RawMessage(`"srv-` + string(rune('a'+i)) + `"`)
			f.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"method":"elicitation/create","params":` + tt.params + `}`)
			m := f.serveLegacy("")
			if string(m.ID) != string(id) || m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams {
				t.Fatalf("got %+v", m)
			}
			detail, _ := json.Marshal(m.Error)
			if !strings.Contains(string(detail), tt.reason) {
				t.Errorf("error %s does not say %q", detail, tt.reason)
			}
		})
	}
}

// TestCancelledRequestGetsNoAnswer checks that after notifications/cancelled
// the request goes stale and nothing is sent for it, even when the person
// answers afterwards.
func TestCancelledRequestGetsNoAnswer(t *testing.T) {
	f := newFakeServer(t)
	_, r := dialFake(t, f)
	f.send(`{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}}}}}`)
	e := next(t, r)
	if got := string(e.Schema); got != `{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}}}` {
		t.Errorf("schema bytes changed on the way: %s", got)
	}
	f.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"timed out"}}`)
	<-e.Context().Done()
	if err := e.Reply(forms.Result{Action: forms.Decline}); err == nil {
		t.Error("a stale request took an answer")
	}
	// The next message the server sees must be the answer to a fresh request, not to 7.
	f.send(`{"jsonrpc":"2.0","id":8,"method":"elicitation/create","params":{"message":"again","requestedSchema":{"type":"object","properties":{}}}}`)
	next(t, r).Reply(forms.Result{Action: forms.Cancel})
	if m := f.serveLegacy(""); string(m.ID) != "8" {
		t.Fatalf("the server got an answer for %s", m.ID)
	}
}

// TestCallWithoutArgumentsSendsAnObject: a call with no arguments (a script's
// call through the app, the Servers window's empty form) sends {}, not
// null, which the TypeScript SDK's servers refuse.
func TestCallWithoutArgumentsSendsAnObject(t *testing.T) {
	f := newFakeServer(t)
	c, _ := dialFake(t, f)
	go c.CallTool(t.Context(), "ask", nil)
	m := f.serveLegacy("tools/call")
	var params struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	json.Unmarshal(m.Params, &params)
	if string(params.Arguments) != "{}" {
		t.Errorf("tools/call params %s: arguments should be {}", m.Params)
	}
}
