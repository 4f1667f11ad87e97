package endpoint

import (
	"context"
	"encoding/json"

	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// Handler does what peers ask of the app. Each request runs on its own
// goroutine with a context that ends when the peer cancels it, goes away,
// or the server closes; the methods must return soon after it ends.
type Handler interface {
	// Front brings the app's windows to the front: a second start asks.
	Front(ctx context.Context) error
	// Forward serves, from now on, the connections forwarded from machine
	// (elicitdesk remote), which may only ask, at ForwardedPath(machine) as
	// the app finds it, which it returns.
	Forward(ctx context.Context, machine string) (path string, err error)
	// Unforward stops serving machine: its connections end, and no start
	// serves it again until Forward.
	Unforward(ctx context.Context, machine string) error
	// CallTool calls a tool on the app's connection to call.Server and
	// returns the CallToolResult as JSON, so that the elicitations it
	// raises are answered in the app's windows.
	CallTool(ctx context.Context, call ToolCall) (json.RawMessage, error)
	// Servers returns where each configured server's connection stands,
	// or OtherConfig when q asks of a servers.json the app does not read.
	Servers(ctx context.Context, q ServersQuery) ([]ServerStatus, error)
	// Elicit asks the person a bridged server's elicitation and returns
	// the ElicitResult to send to the server as JSON. A *jsonrpc.Error
	// refuses the request with its code, message and data.
	Elicit(ctx context.Context, q Question) (json.RawMessage, error)
	// Unshown keeps an elicitation of a bridged server that no window
	// could show in the app's history; an error says it was not taken.
	Unshown(ctx context.Context, u Unshown) error
	// Bridge keeps session s listed until ctx ends (the bridge cancelled
	// the request or went away), and blocks until then. The bridge is
	// told at once, and after each call of captureChanged (which never
	// blocks), whether to send the session's messages themselves with
	// their facts (BridgeTraffic), as Capturing says.
	Bridge(ctx context.Context, s Bridged, captureChanged func()) error
	// Capturing says whether the app keeps bridged session s's messages
	// themselves.
	Capturing(s Bridged) bool
	// Traffic returns what passed on the configured servers'
	// connections after q.After, oldest first, waiting for news if q.Wait
	// says so, until ctx ends.
	Traffic(ctx context.Context, q TrafficQuery) ([]traffic.Entry, error)
	// BridgeTraffic keeps what passed between a bridged session and its
	// server. It runs on the connection's reader and must not block.
	BridgeTraffic(t BridgeTraffic)
	// Complete passes on a bridged server's
	// notifications/elicitation/complete. It runs on the connection's
	// reader and must not block.
	Complete(c Completion)
}
