package endpoint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/lines"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// ErrNotRunning means no Elicit Desk serves the endpoint.
var ErrNotRunning = errors.New("no Elicit Desk app is running")

// ErrDisconnected means the connection to the app ended while a call
// waited or before it was sent: the app quit, crashed or hung up. It is
// never a *jsonrpc.Error, which is the app's own refusal.
var ErrDisconnected = errors.New("the connection to Elicit Desk ended")

// handshakeWait bounds the handshake: the app answers it at once.
const handshakeWait = 5 * time.Second

// Client is a connection to the running app: an rpc.Peer over the
// endpoint's wire. Its methods may be called from several goroutines at
// once; each call is a request of its own.
type Client struct {
	p         *rpc.Peer
	capturing atomic.Bool // as the app last told (methodCapture)
}

// Dial connects to the app serving at path. Before sending anything it
// checks that the endpoint (a socket's directory and file; a pipe) and the
// process serving it are this user's, and refuses with an error wrapping
// ErrNotPrivate otherwise; ErrNotRunning says no app listens there.
func Dial(ctx context.Context, path string) (*Client, error) {
	nc, err := dialAt(ctx, path)
	if err != nil {
		return nil, err
	}
	c := &Client{}
	c.p = rpc.New(newWire(nc), rpc.Options{Notification: c.notified})
	hctx, cancel := context.WithTimeout(ctx, handshakeWait)
	defer cancel()
	var hello helloParams
	err = c.call(hctx, methodHello, ours(), &hello)
	if err == nil && hello.Version != Version {
		err = errors.New(mismatch(hello, ours()))
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("the app at %s: %w", path, err)
	}
	return c, nil
}

// Front asks the app to bring its windows to the front.
func (c *Client) Front(ctx context.Context) error {
	return c.call(ctx, methodFront, nil, nil)
}

// Forward asks the app to serve the connections forwarded from machine
// (elicitdesk remote) from now on, and returns the path it serves it at:
// "" from an app too old to say.
func (c *Client) Forward(ctx context.Context, machine string) (path string, err error) {
	var f Forwarding
	err = c.call(ctx, methodForward, Forwarding{Machine: machine}, &f)
	return f.Path, err
}

// Unforward asks the app to stop serving machine (elicitdesk remote
// -forget).
func (c *Client) Unforward(ctx context.Context, machine string) error {
	return c.call(ctx, methodUnforward, Forwarding{Machine: machine}, nil)
}

// CallTool asks the app to call a tool on its connection to call.Server
// and returns the CallToolResult as JSON. It waits as long as ctx allows:
// people may take minutes to answer. When ctx ends first, the app is told
// to cancel the call.
func (c *Client) CallTool(ctx context.Context, call ToolCall) (json.RawMessage, error) {
	var res json.RawMessage
	err := c.call(ctx, methodCallTool, call, &res)
	return res, err
}

// Servers asks the app where each configured server's connection stands:
// those of q.Config, or an *OtherConfigError when the app reads another.
// An app of a release before ServersQuery answers of its own file.
func (c *Client) Servers(ctx context.Context, q ServersQuery) ([]ServerStatus, error) {
	var list []ServerStatus
	err := c.call(ctx, methodServers, q, &list)
	if e := jsonrpc.As(err); e != nil && e.Code == codeOtherConfig {
		other := &OtherConfigError{}
		json.Unmarshal(e.Data, &other.Reads)
		return nil, other
	}
	return list, err
}

// Traffic asks the app for what passed on its connections to its
// configured servers, as q says.
func (c *Client) Traffic(ctx context.Context, q TrafficQuery) ([]traffic.Entry, error) {
	var list []traffic.Entry
	err := c.call(ctx, methodTraffic, q, &list)
	return list, err
}

// Elicit asks the person q's elicitation in the app's windows and returns
// the ElicitResult to send to the server, as JSON. It waits as long as ctx
// allows; when ctx ends first, the app is told to cancel, and its window
// goes stale. A *jsonrpc.Error is the app's refusal, with the code,
// message and data to send to the server; an error wrapping
// ErrDisconnected says the app went away.
func (c *Client) Elicit(ctx context.Context, q Question) (json.RawMessage, error) {
	var res json.RawMessage
	err := c.call(rpc.InTurn(ctx), methodElicit, q, &res) // a bridge's questions reach the app in the order its server asked them
	return res, err
}

// Unshown hands the app an elicitation no window could show, for its
// history. nil means the app has taken it; an error that it has not (a
// *jsonrpc.Error with jsonrpc.CodeMethodNotFound from an app of an older
// release), and the caller keeps it itself.
func (c *Client) Unshown(ctx context.Context, u Unshown) error {
	return c.call(ctx, methodUnshown, u, nil)
}

// Bridge has the app list session s until ctx ends, and returns then
// (with ctx's cause, after telling the app) or when the connection breaks
// (an error wrapping ErrDisconnected).
func (c *Client) Bridge(ctx context.Context, s Bridged) error {
	return c.call(ctx, methodBridge, s, nil)
}

// Complete passes on a bridged server's notifications/elicitation/complete.
// It is a notification: nil means it was sent, not that an open request
// matched; an error wrapping ErrDisconnected says the app went away.
func (c *Client) Complete(ctx context.Context, completion Completion) error {
	return c.notify(ctx, methodComplete, completion)
}

// BridgeTraffic passes on what passed between a bridged session and its
// server. It is a notification: an error wrapping ErrDisconnected says the
// app went away.
func (c *Client) BridgeTraffic(ctx context.Context, t BridgeTraffic) error {
	return c.notify(ctx, methodBridgeTraffic, t)
}

// Capturing says whether the app keeps the messages of bridged sessions
// themselves, as it last told a session listed on this connection.
func (c *Client) Capturing() bool { return c.capturing.Load() }

// notified hears the app's notifications.
func (c *Client) notified(m link.Message) {
	if m.Method != methodCapture {
		return
	}
	var n struct {
		Params Capture `json:"params"`
	}
	if json.Unmarshal(m.Raw, &n) == nil {
		c.capturing.Store(n.Params.On)
	}
}

// notify sends a notification.
func (c *Client) notify(ctx context.Context, method string, params any) error {
	if err := c.p.Notify(ctx, method, params); err != nil {
		return c.failed(ctx, err)
	}
	return nil
}

// Close hangs up, which cancels the calls under way in the app, and waits
// for the connection's reader to end.
func (c *Client) Close() error {
	return c.p.Close()
}

// call sends a request and waits for its response, decoded into result
// when not nil. A *jsonrpc.Error is the app's refusal; an error wrapping
// ErrDisconnected says the connection ended; when ctx ends first, the app
// is told (notifications/cancelled) and call returns ctx's cause.
func (c *Client) call(ctx context.Context, method string, params, result any) error {
	res, err := c.p.Call(ctx, method, params)
	if err != nil {
		return c.failed(ctx, err)
	}
	if result == nil {
		return nil
	}
	return json.Unmarshal(res, result)
}

// failed says why a call or a notification failed with err.
func (c *Client) failed(ctx context.Context, err error) error {
	var long *lines.TooLong
	switch {
	case jsonrpc.As(err) != nil:
		return err
	case ctx.Err() != nil:
		return context.Cause(ctx)
	case errors.As(err, &long):
		return fmt.Errorf("the request is %d bytes; the app takes at most %d", long.Size, long.Max)
	}
	return fmt.Errorf("%w: %w", ErrDisconnected, err)
}
