package endpoint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// testHandler answers the tests' requests and reports what happened.
type testHandler struct {
	fronts  chan struct{} // one per Front
	started chan struct{} // one per "wait" call started
	ended   chan error    // a "wait" call's ctx.Err() as it ends
	release chan struct{} // closed to let "wait" calls return a result

	bridged   chan Bridged    // a session as Bridge starts
	unbridged chan error      // a Bridge's ctx.Err() as it ends
	completes chan Completion // one per Complete
	unshown   chan Unshown    // one per Unshown taken

	traffic *traffic.Record
}

func newHandler() *testHandler {
	return &testHandler{
		fronts:  make(chan struct{}, 64),
		started: make(chan struct{}, 64),
		ended:   make(chan error, 64),
		release: make(chan struct{}),

		bridged:   make(chan Bridged, 64),
		unbridged: make(chan error, 64),
		completes: make(chan Completion, 64),
		unshown:   make(chan Unshown, 64),

		traffic: traffic.New(0),
	}
}

func (h *testHandler) BridgeTraffic(t BridgeTraffic) {
	h.traffic.Listed(t.Session, "bridged", "")
	h.traffic.AddBridged(t.Session, t.Entries, t.Bodies, t.Headers)
}

func (h *testHandler) Traffic(ctx context.Context, q TrafficQuery) ([]traffic.Entry, error) {
	if q.Wait {
		return h.traffic.Wait(ctx, q.After)
	}
	list, _ := h.traffic.After(q.After)
	return list, nil
}

func (h *testHandler) Forward(_ context.Context, machine string) (string, error) {
	return "", fmt.Errorf("no forward for %s in this test", machine)
}

func (h *testHandler) Unforward(_ context.Context, machine string) error {
	return fmt.Errorf("no forward for %s in this test", machine)
}

func (h *testHandler) Front(context.Context) error {
	h.fronts <- struct{}{}
	return nil
}

// CallTool: "echo" returns the call, "fail" fails with text a terminal must
// not see raw, "huge" returns more than MaxMessage, "wait" waits for
// release or the end of ctx.
func (h *testHandler) CallTool(ctx context.Context, call ToolCall) (json.RawMessage, error) {
	switch call.Tool {
	case "echo":
		return json.Marshal(call)
	case "fail":
		return nil, errors.New("no such tool \u202egnp.exe\x1b[2J")
	case "huge":
		return json.Marshal(strings.Repeat("x", MaxMessage))
	case "wait":
		h.started <- struct{}{}
		select {
		case <-h.release:
			h.ended <- nil
			return json.RawMessage(`{"released":true}`), nil
		case <-ctx.Done():
			h.ended <- ctx.Err()
			return nil, ctx.Err()
		}
	}
	return nil, fmt.Errorf("no tool %s", call.Tool)
}

// Servers lists one ready and one failed server whose error a terminal
// must not see raw.
func (h *testHandler) Servers(context.Context, ServersQuery) ([]ServerStatus, error) {
	return []ServerStatus{
		{Name: "demo", State: "ready", Since: time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)},
		{Name: "github", State: "failed", Error: "401 \u202eUnauthorized", Since: time.Date(2026, 5, 4, 10, 1, 0, 0, time.UTC)},
	}, nil
}

// quiet is a logger that drops everything.
func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// startServer claims a fresh endpoint with l and a new testHandler.
func startServer(t *testing.T, l limits) (*Server, string, *testHandler) {
	t.Helper()
	path, h := socketPath(t), newHandler()
	s, err := listen(t.Context(), path, h, quiet(), l)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path, h
}

// await fails t unless ch receives soon, and returns what it received.
func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not happen", what)
		panic("unreachable")
	}
}

// refusalData is what the "refuse" server's refusal carries.
const refusalData = `{"problems":[{"path":"/properties/x","problem":"no type \u202e"}]}`

// Elicit, by the session's server: "echo" returns the params as sent,
// "refuse" refuses with -32602 and data, "wait" waits as CallTool's "wait"
// does, and "fail" fails with a plain error.
func (h *testHandler) Elicit(ctx context.Context, q Question) (json.RawMessage, error) {
	switch q.Session.Server {
	case "echo":
		return q.Params, nil
	case "refuse":
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "requestedSchema: 1 problem", Data: json.RawMessage(refusalData)}
	case "wait":
		h.started <- struct{}{}
		select {
		case <-h.release:
			h.ended <- nil
			return json.RawMessage(`{"action":"decline"}`), nil
		case <-ctx.Done():
			h.ended <- ctx.Err()
			return nil, ctx.Err()
		}
	}
	return nil, errors.New("cannot ask")
}

func (h *testHandler) Capturing(Bridged) bool { return false }

func (h *testHandler) Bridge(ctx context.Context, s Bridged, _ func()) error {
	h.bridged <- s
	<-ctx.Done()
	h.unbridged <- ctx.Err()
	return nil
}

func (h *testHandler) Complete(c Completion) { h.completes <- c }

// Unshown takes the entry, but for the "refuse" server's, which it
// refuses as an app without a history does.
func (h *testHandler) Unshown(_ context.Context, u Unshown) error {
	if u.Question.Session.Server == "refuse" {
		return errors.New("there is no history")
	}
	h.unshown <- u
	return nil
}
