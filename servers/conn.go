package servers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/gate"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers/bridge"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/wire"
)

// clientInfo is how Elicit Desk introduces itself to servers.
var clientInfo = mcp.Implementation{Name: "elicitdesk", Title: "Elicit Desk", Version: "0.1.0"}

// Conn is a live connection to one configured server. Its elicitations go
// to the Router it was dialled with, tagged with the server's identity.
type Conn struct {
	cfg    config.Server
	router *Router
	log    *slog.Logger
	client *client.Client
	logs   *gate.Gate // what log passes through; shut by Close
	stderr *tail
	proc   *Process // stdio only

	lost     context.Context // ends, with the reason as its cause, when the server goes away
	markLost context.CancelCauseFunc

	mu        sync.Mutex
	reported  ServerInfo
	version   string
	tools     map[string]bool // the tools listed: whether mcp-go kept each (see knowTool)
	answering sync.WaitGroup  // answers in progress; added to under mu while not lost
}

// Dial connects to the server of cfg: it starts a stdio server or reaches a
// remote one, declares elicitation in form and url mode, negotiates the
// protocol (honouring cfg.ProtocolVersion) and routes every elicitation the
// server sends to router. ctx bounds the connecting only.
func Dial(ctx context.Context, cfg config.Server, router *Router, log *slog.Logger) (*Conn, error) {
	return DialWith(ctx, cfg, router, log, nil)
}

// DialWith is Dial with every HTTP request to a remote server going
// through wrap: signin.Signer.Transport adds the sign-in there.
func DialWith(ctx context.Context, cfg config.Server, router *Router, log *slog.Logger, wrap wire.Wrap) (*Conn, error) {
	if cfg.Err != nil {
		return nil, cfg.Err
	}
	c := newConn(cfg, router, log)
	var tr transport.Interface
	switch cfg.Transport {
	case config.TransportStdio:
		p, err := StartProcess(cfg, c.stderr, c.lose)
		if err != nil {
			return nil, err
		}
		c.proc = p
		tr = c.stdioWire(p.stdout, p.stdin)
	case config.TransportHTTP, config.TransportSSE:
		var err error
		if tr, err = dialRemote(cfg, wrap, c.answer, c.lose, c.log); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown transport %q", cfg.Transport)
	}
	if err := c.start(ctx, tr); err != nil {
		c.Close()
		return nil, c.startFailed(err)
	}
	return c, nil
}

func newConn(cfg config.Server, router *Router, log *slog.Logger) *Conn {
	lost, markLost := context.WithCancelCause(context.Background())
	logs := &gate.Gate{}
	return &Conn{cfg: cfg, router: router, log: gatedLogger(log.With("server", cfg.Name), logs), logs: logs, stderr: newTail(stderrTail), lost: lost, markLost: markLost}
}

// DialPipe connects over an already open pair of streams, such as an
// in-process server's: r carries the server's messages, w ours.
func DialPipe(ctx context.Context, cfg config.Server, r io.Reader, w io.WriteCloser, router *Router, log *slog.Logger) (*Conn, error) {
	c := newConn(cfg, router, log)
	if err := c.start(ctx, c.stdioWire(r, w)); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// stdioWire is the transport over a server's newline-delimited streams: r
// carries its messages, w ours.
func (c *Conn) stdioWire(r io.Reader, w io.WriteCloser) transport.Interface {
	return wire.NewStdio(r, w, c.answer, c.lose, c.log)
}

// dialRemote builds the transport of a Streamable HTTP or SSE server.
func dialRemote(cfg config.Server, wrap wire.Wrap, answer wire.AnswerFunc, lost func(error), log *slog.Logger) (transport.Interface, error) {
	if cfg.Transport == config.TransportSSE {
		return wire.NewSSE(cfg.URL, cfg.Headers, wrap, answer, lost, log)
	}
	return wire.NewStreamableHTTP(cfg.URL, cfg.Headers, wrap, answer, log)
}

// start runs the MCP handshake over tr.
func (c *Conn) start(ctx context.Context, tr transport.Interface) error {
	opts := []client.ClientOption{
		client.WithClientCapabilities(mcp.ClientCapabilities{
			Elicitation: &mcp.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}},
		}),
		client.WithElicitationHandler(inputHandler{c}),       // 2026-07-28 input requests
		client.WithMaxInputRoundTrips(bridge.MaxInputRounds), // as for bridged hosts
	}
	switch {
	case c.cfg.ProtocolVersion != "":
		opts = append(opts, client.WithProtocolVersion(c.cfg.ProtocolVersion))
	case c.cfg.Transport == config.TransportSSE:
		// HTTP+SSE predates 2026-07-28: probing server/discover there only costs time.
		//lint:ignore SA1019 deprecated with the legacy revisions, which HTTP+SSE servers speak
		opts = append(opts, client.WithLegacyProtocolOnly())
	}
	c.client = client.NewClient(tr, opts...)
	c.client.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationElicitationComplete) {
			if id, ok := n.Params.AdditionalFields["elicitationId"].(string); ok {
				c.router.Complete(c.cfg.Name, id)
			}
		}
	})
	// The transport lives as long as the connection, not as long as ctx.
	if err := c.client.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("starting the transport: %w", err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if c.cfg.ProtocolVersion != "" {
		req.Params.ProtocolVersion = c.cfg.ProtocolVersion
	}
	req.Params.ClientInfo = clientInfo
	res, err := c.client.Initialize(ctx, req)
	if err != nil {
		return fmt.Errorf("initializing: %w", err)
	}
	version := c.client.ProtocolVersion()
	if pinned := c.cfg.ProtocolVersion; pinned != "" && version != pinned {
		return fmt.Errorf("the server speaks protocol %s, not the pinned %s", version, pinned)
	}
	c.mu.Lock()
	c.reported = ServerInfo{Name: untrusted.Text(res.ServerInfo.Name), Title: untrusted.Text(res.ServerInfo.Title), Version: untrusted.Text(res.ServerInfo.Version)}
	c.version = version
	c.mu.Unlock()
	return nil
}

// Identity is the configured identity beside what the server reports.
func (c *Conn) Identity() Identity {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Identity{Name: c.cfg.Name, Target: c.cfg.Target(), Reported: c.reported}
}

// ProtocolVersion is the negotiated protocol revision.
func (c *Conn) ProtocolVersion() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// Stderr returns the last 64 KB a stdio server wrote to its stderr.
func (c *Conn) Stderr() string { return c.stderr.String() }

// Lost is closed when the server goes away; Err then says why.
func (c *Conn) Lost() <-chan struct{} { return c.lost.Done() }

// Err says why the connection was lost, or nil while it lives.
func (c *Conn) Err() error { return context.Cause(c.lost) }

// lose marks the connection lost for err; the first reason stays.
func (c *Conn) lose(err error) {
	if err == nil {
		err = errors.New("the server closed the connection")
	}
	c.markLost(err)
}

// Ping checks that the server still answers. On 2026-07-28 mcp-go's Ping
// returns without asking the server, so server/discover, which every such
// server must answer, asks instead.
func (c *Conn) Ping(ctx context.Context) error {
	if mcp.IsModernProtocol(c.ProtocolVersion()) {
		_, err := c.client.Discover(ctx, mcp.DiscoverRequest{})
		return err
	}
	//lint:ignore SA1019 deprecated with the legacy revisions, where ping is how to ask
	return c.client.Ping(ctx)
}

// Tools lists the server's tools, every page, with their schemas as the
// server sent them.
func (c *Conn) Tools(ctx context.Context) ([]Tool, error) {
	ctx = wire.WithToolSchemas(ctx)
	res, err := c.client.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return nil, err
	}
	wire.RawSchemas(ctx, res.Tools)
	c.noteListed(ctx, res.Tools)
	return toolsOf(res.Tools)
}

// CallTool calls a tool. Elicitations it triggers, by request or as
// 2026-07-28 input requests, go to the router like any other. A -32042
// answer is a *jsonrpc.Error (see AsURLRequired).
func (c *Conn) CallTool(ctx context.Context, name string, args map[string]any) (*ToolResult, error) {
	if err := c.knowTool(ctx, name); err != nil {
		return nil, err
	}
	if args == nil {
		args = map[string]any{} // arguments is an object: servers refuse null
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	return resultOf(c.client.CallTool(wire.WithInputs(ctx), req))
}

// Close ends the connection; a stdio server is stopped with everything it
// started. Every goroutine the connection started has ended when it
// returns, and what mcp-go's own may still log is dropped.
func (c *Conn) Close() error {
	// First, and waiting for the answers to end, so that the person's open
	// requests say the server went away rather than that the wire closed.
	c.mu.Lock()
	c.lose(errors.New("stopped"))
	c.mu.Unlock()
	c.answering.Wait()
	var err error
	if c.client != nil {
		err = c.client.Close()
	}
	if c.proc != nil {
		c.proc.Stop(2 * time.Second)
	}
	c.logs.Close()
	return err
}

// answer routes one elicitation to the person, tagged with who asks.
func (c *Conn) answer(ctx context.Context, raw json.RawMessage) (any, error) {
	c.mu.Lock()
	if c.lost.Err() != nil {
		c.mu.Unlock()
		return nil, fmt.Errorf("the server disconnected: %w", c.Err())
	}
	c.answering.Add(1)
	c.mu.Unlock()
	defer c.answering.Done()
	// The request also ends when the whole connection does.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer context.AfterFunc(c.lost, func() { cancel(fmt.Errorf("the server disconnected: %w", c.Err())) })()
	res, err := c.router.AskRaw(ctx, c.Identity(), raw)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// inputHandler answers the elicitations of 2026-07-28 input_required
// results, which mcp-go hands over decoded; the raw bytes come from the
// call's wire.WithInputs.
type inputHandler struct{ c *Conn }

func (h inputHandler) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	raw := wire.InputParams(ctx, req.Params)
	if raw == nil {
		var err error
		if raw, err = json.Marshal(req.Params); err != nil {
			return nil, err
		}
	}
	v, err := h.c.answer(ctx, raw)
	if err != nil {
		return nil, err
	}
	res := v.(forms.Result)
	out := &mcp.ElicitationResult{}
	out.Action = mcp.ElicitationResponseAction(res.Action)
	if len(res.Content) > 0 {
		out.Content = res.Content
	}
	return out, nil
}
