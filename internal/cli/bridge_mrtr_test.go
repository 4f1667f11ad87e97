//go:build unix

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// person stands in for the app and its windows behind the endpoint: it
// answers each bridged question with answer.
type person struct {
	answer json.RawMessage
	asked  chan endpoint.Question
}

func (p person) Front(context.Context) error { return nil }
func (p person) Forward(context.Context, string) (string, error) {
	return "", fmt.Errorf("not the app")
}
func (p person) Unforward(context.Context, string) error {
	return fmt.Errorf("not the app")
}
func (p person) CallTool(context.Context, endpoint.ToolCall) (json.RawMessage, error) {
	return nil, fmt.Errorf("not the app")
}
func (p person) Servers(context.Context, endpoint.ServersQuery) ([]endpoint.ServerStatus, error) {
	return nil, nil
}
func (p person) Traffic(context.Context, endpoint.TrafficQuery) ([]traffic.Entry, error) {
	return nil, nil
}
func (p person) Elicit(ctx context.Context, q endpoint.Question) (json.RawMessage, error) {
	p.asked <- q
	return p.answer, nil
}
func (p person) Capturing(endpoint.Bridged) bool { return false }
func (p person) Bridge(ctx context.Context, _ endpoint.Bridged, _ func()) error {
	<-ctx.Done()
	return nil
}
func (p person) Complete(endpoint.Completion)         {}
func (p person) BridgeTraffic(endpoint.BridgeTraffic) {}
func (p person) Unshown(context.Context, endpoint.Unshown) error {
	return fmt.Errorf("not the app")
}

// TestBridge2026Host: a 2026-07-28 host with no elicitation handler (mcp-go's
// client) calls the demo's input_required tool through the bridge; the
// person answers at the endpoint, asked by the server under the name the
// bridge was given, and the host gets the final result.
func TestBridge2026Host(t *testing.T) {
	noApp(t)
	exe := asElicitdesk(t)
	path, err := endpoint.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p := person{answer: json.RawMessage(`{"action":"accept","content":{"color":"green"}}`), asked: make(chan endpoint.Question, 1)}
	srv, err := endpoint.Listen(ctx, path, p, slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	tr := transport.NewStdio(exe, os.Environ(), append([]string{"bridge", "-name=my demo", "--"}, demoCommand(t)[1:]...)...)
	host := client.NewClient(tr, client.WithProtocolVersion(mcp.ProtocolVersion20260728))
	if err := host.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.ProtocolVersion20260728
	init.Params.ClientInfo = mcp.Implementation{Name: "go-host", Title: "A 2026 host"}
	if _, err := host.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	if v := host.ProtocolVersion(); v != mcp.ProtocolVersion20260728 {
		t.Fatalf("the host speaks %s through the bridge, want 2026-07-28", v)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "input_required"
	res, err := host.CallTool(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	var q endpoint.Question
	select {
	case q = <-p.asked:
	default:
		t.Fatalf("the call ended without asking the person: %+v", res)
	}
	if !strings.Contains(string(q.Params), "pick a colour") || q.Session.Host.Title != "A 2026 host" || q.Session.Server != "my demo" {
		t.Errorf("the person was asked %s by %q for %+v", q.Params, q.Session.Server, q.Session.Host)
	}
	text := fmt.Sprint(res.Content)
	if res.IsError || !strings.Contains(text, `"color":"green"`) || !strings.Contains(text, "accepted the input request") {
		t.Errorf("the host got %s, want the demo's final result echoing the answer", text)
	}
}
