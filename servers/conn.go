package servers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/gate"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers/client"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// clientInfo is how Elicit Desk introduces itself to servers.
var clientInfo = client.Implementation{Name: "elicitdesk", Title: "Elicit Desk", Version: "0.1.0"}

// ErrServerClosed is the cause when a stdio server closes its output.
var ErrServerClosed = errors.New("the server closed the connection")

// errOldTransport marks a Streamable HTTP server that refused the
// handshake with a 4xx status: it may speak only the older HTTP+SSE.
var errOldTransport = errors.New("the server refused to start a session")

// Wrap wraps the HTTP transport every request of a connection goes
// through, as sign-in does to add its token; nil wraps nothing.
type Wrap func(http.RoundTripper) http.RoundTripper

// Via is what a connection's messages pass through besides its
// transport; the zero Via adds nothing.
type Via struct {
	// HTTP wraps the transport of a remote server's requests: sign-in
	// adds its token there.
	HTTP Wrap
	// Link wraps the connection's link: the core's traffic record sees
	// every message there.
	Link func(link.Link) link.Link
}

// Conn is a live connection to one configured server. Its elicitations go
// to the Router it was dialled with, tagged with the server's identity.
type Conn struct {
	cfg     config.Server
	router  *Router
	log     *slog.Logger
	link    link.Link
	session *client.Session
	http    *http.Transport // remote only: its idle connections end with Close
	logs    *gate.Gate      // what log passes through; shut by Close
	stderr  *tail
	proc    *Process // stdio only

	lost     context.Context // ends, with the reason as its cause, when the server goes away
	markLost context.CancelCauseFunc

	mu        sync.Mutex
	answering sync.WaitGroup // answers in progress; added to under mu while not lost
}

// Dial connects to the server of cfg: it starts a stdio server or reaches a
// remote one, declares elicitation in form and url mode, negotiates the
// protocol (honouring cfg.ProtocolVersion) and routes every elicitation the
// server sends to router. ctx bounds the connecting only.
func Dial(ctx context.Context, cfg config.Server, router *Router, log *slog.Logger) (*Conn, error) {
	return DialWith(ctx, cfg, router, log, Via{})
}

// DialWith is Dial with the connection's messages going through via.
func DialWith(ctx context.Context, cfg config.Server, router *Router, log *slog.Logger, via Via) (*Conn, error) {
	if cfg.Err != nil {
		return nil, cfg.Err
	}
	c := newConn(cfg, router, log)
	switch cfg.Transport {
	case config.TransportStdio:
		p, err := StartProcess(cfg, c.stderr, c.lose)
		if err != nil {
			return nil, err
		}
		c.proc = p
		c.link = link.NewLines(p.stdout, p.stdin)
	case config.TransportHTTP, config.TransportSSE:
		c.http = http.DefaultTransport.(*http.Transport).Clone()
		var rt http.RoundTripper = c.http
		if via.HTTP != nil {
			rt = via.HTTP(rt)
		}
		hc := &http.Client{Transport: rt} // no timeout: a call lasts as long as a person takes
		c.link = RemoteLink(cfg, hc, c.log)
	default:
		return nil, fmt.Errorf("unknown transport %q", cfg.Transport)
	}
	if via.Link != nil {
		c.link = via.Link(c.link)
	}
	if err := c.start(ctx); err != nil {
		c.Close()
		return nil, c.startFailed(err)
	}
	return c, nil
}

// RemoteLink is the link to cfg's remote server, over Streamable HTTP or
// the older HTTP+SSE as cfg says, its requests made by hc.
func RemoteLink(cfg config.Server, hc *http.Client, log *slog.Logger) link.Link {
	if cfg.Transport == config.TransportSSE {
		return link.NewSSEClient(cfg.URL, cfg.Headers, hc)
	}
	sc := link.NewStreamableClient(cfg.URL, cfg.Headers, hc)
	sc.SetLogger(log)
	return sc
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
	c.link = link.NewLines(r, w)
	if err := c.start(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// start runs the MCP handshake over c.link, and watches it for its end.
func (c *Conn) start(ctx context.Context) error {
	s, err := client.Connect(ctx, c.link, client.Options{
		Info:    clientInfo,
		Version: c.cfg.ProtocolVersion,
		// HTTP+SSE predates 2026-07-28: probing server/discover there only costs time.
		Legacy:   c.cfg.Transport == config.TransportSSE && c.cfg.ProtocolVersion == "",
		Elicit:   c.elicit,
		Complete: func(id string) { c.router.Complete(Identity{Name: c.cfg.Name}, id) },
		Check:    CheckParams,
		Bad:      c.bad,
		Log:      c.log,
	})
	if err != nil {
		var status *link.StatusError
		if c.cfg.Transport == config.TransportHTTP && errors.As(err, &status) && status.Code >= 400 && status.Code < 500 && status.Code != http.StatusUnauthorized {
			err = fmt.Errorf("%w (HTTP %d): %w", errOldTransport, status.Code, err)
		}
		return err
	}
	c.mu.Lock()
	c.session = s
	c.mu.Unlock()
	if pinned := c.cfg.ProtocolVersion; pinned != "" && s.ProtocolVersion() != pinned {
		return fmt.Errorf("the server speaks protocol %s, not the pinned %s", s.ProtocolVersion(), pinned)
	}
	go func() {
		<-s.Done()
		err := s.Err()
		if errors.Is(err, io.EOF) {
			err = fmt.Errorf("%w: %w", ErrServerClosed, err)
			// A stdio server closes its stdout as it exits: its exit, with
			// all it wrote to stderr, says why better than the EOF does.
			if c.proc != nil {
				select {
				case <-c.proc.exited:
				case <-time.After(exitWait):
				}
			}
		}
		c.lose(err)
	}()
	return nil
}

// Identity is the configured identity beside what the server reports.
func (c *Conn) Identity() Identity {
	c.mu.Lock()
	s := c.session
	c.mu.Unlock()
	id := Identity{Name: c.cfg.Name, Target: c.cfg.Target()}
	if s != nil {
		info := s.Server()
		id.Reported = ServerInfo{Name: untrusted.Text(info.Name), Title: untrusted.Text(info.Title), Version: untrusted.Text(info.Version)}
	}
	return id
}

// ProtocolVersion is the negotiated protocol revision.
func (c *Conn) ProtocolVersion() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.session == nil {
		return ""
	}
	return c.session.ProtocolVersion()
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
		err = ErrServerClosed
	}
	c.markLost(err)
}

// Ping checks that the server still answers: ping, or server/discover on
// 2026-07-28, which has no ping.
func (c *Conn) Ping(ctx context.Context) error { return c.session.Ping(ctx) }

// Tools lists the server's tools, every page, each read from its bytes as
// sent. A tool that cannot be read (no name) is left out and logged. Over
// Streamable HTTP on 2026-07-28 the link leaves out a tool whose
// x-mcp-header marks break the rules, as the bridge does.
func (c *Conn) Tools(ctx context.Context) ([]Tool, error) {
	raws, err := c.session.ListTools(ctx)
	if err != nil {
		return nil, err
	}
	tools := make([]Tool, 0, len(raws))
	for _, raw := range raws {
		t, err := ParseTool(raw)
		if err != nil {
			c.log.Warn("a tool left out of the list", "err", err)
			continue
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// CallTool calls a tool. Elicitations it triggers, by request or as
// 2026-07-28 input requests, go to the router like any other. Over
// Streamable HTTP the link mirrors x-mcp-header arguments into headers,
// listing the tools first if it has not, as it does for the bridge.
func (c *Conn) CallTool(ctx context.Context, name string, args map[string]any) (*ToolResult, error) {
	var raw json.RawMessage
	if args != nil {
		var err error
		if raw, err = json.Marshal(args); err != nil {
			return nil, fmt.Errorf("the arguments: %w", err)
		}
	}
	res, err := c.session.CallTool(ctx, name, raw)
	if err != nil {
		return nil, err
	}
	return ParseToolResult(res)
}

// Close ends the connection; a stdio server is stopped with everything it
// started. Every goroutine the connection started has ended when it
// returns.
func (c *Conn) Close() error {
	// First, and waiting for the answers to end, so that the person's open
	// requests say the server went away rather than that the wire closed.
	c.mu.Lock()
	c.lose(errors.New("stopped"))
	s := c.session
	c.mu.Unlock()
	c.answering.Wait()
	var err error
	if s != nil {
		err = s.Close()
	} else if c.link != nil {
		err = c.link.Close()
	}
	if c.proc != nil {
		c.proc.Stop(2 * time.Second)
	}
	if c.http != nil {
		c.http.CloseIdleConnections()
	}
	c.logs.Close()
	return err
}

// elicit answers one elicitation, an elicitation/create request's or a
// 2026-07-28 input request's, from its params as sent.
func (c *Conn) elicit(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	res, err := c.answer(ctx, params)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

// answer routes one elicitation to the person, tagged with who asks.
func (c *Conn) answer(ctx context.Context, raw json.RawMessage) (forms.Result, error) {
	c.mu.Lock()
	if c.lost.Err() != nil {
		c.mu.Unlock()
		return forms.Result{}, fmt.Errorf("the server disconnected: %w", c.Err())
	}
	c.answering.Add(1)
	c.mu.Unlock()
	defer c.answering.Done()
	// The request also ends when the whole connection does, saying so.
	asked := ctx
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(asked))
	defer cancel(nil)
	defer context.AfterFunc(asked, func() {
		if cause := context.Cause(asked); !errors.Is(cause, rpc.ErrClosed) {
			cancel(cause)
		} // else the connection ended: c.lost says why, once it knows
	})()
	defer context.AfterFunc(c.lost, func() {
		// A cancel the server sent before it went is its own word on the
		// request: the two AfterFuncs run in either order.
		if cause := context.Cause(asked); cause != nil && !errors.Is(cause, rpc.ErrClosed) {
			cancel(cause)
			return
		}
		cancel(c.gone())
	})()
	return c.router.AskRaw(AskedOn(ctx, c.lost), c.Identity(), raw)
}

// exitWait bounds how long a stdio server that closed its stdout is
// given to exit before its connection counts as lost without its exit.
const exitWait = time.Second

// gone is why the connection's end cut a request short: for a server
// that went away, as the Servers window says it (its own last words on
// stderr, or its exit code), else the connection's end.
func (c *Conn) gone() error {
	err := c.Err()
	if wentAway(err) {
		return errors.New(strings.TrimSuffix(Explain(err, c.Stderr()).Summary, "."))
	}
	return fmt.Errorf("the server disconnected: %w", err)
}

// bad refuses a server's request that could not be read; an elicitation
// among them is reported as refused, like one over the limits.
func (c *Conn) bad(bad *link.BadMessage) *jsonrpc.Error {
	e := badRequest(bad)
	if bad.Method == "elicitation/create" {
		c.router.RefuseUnread(c.Identity(), e)
	}
	return e
}
