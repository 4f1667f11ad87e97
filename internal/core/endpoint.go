package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/atomicfile"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// Endpoint answers the public endpoint with the core: a second start
// brings the windows forward, scripts call tools on the core's own
// connections, and bridges ask their elicitations here.
func (c *Core) Endpoint() endpoint.Handler { return handler{c: c} }

type handler struct {
	c *Core
	// machine is the other machine the handler's connections come from,
	// through a forward (Forward); "" for this one.
	machine string
}

// identity is a bridged session's server as the person is to see it:
// with the machine it runs on, which the forward, not the bridge, says,
// and the session, which its URL requests' completions must come from.
func (h handler) identity(b endpoint.Bridged) servers.Identity {
	id := BridgedIdentity(b)
	id.Machine, id.Session = h.machine, h.session(b.ID)
	return id
}

// session is the id the core keeps a bridged session by: a forwarded
// machine's are apart from this machine's and every other's, whatever
// ids its bridges choose.
func (h handler) session(id string) string {
	if h.machine == "" {
		return id
	}
	return h.machine + "--" + id
}

// Front shows the oldest request's window, or the Servers window: the
// person started Elicit Desk again.
func (h handler) Front(context.Context) error {
	if h.c.ctx.Err() != nil {
		return errQuitting
	}
	h.c.Show(Show{Window: WindowFront})
	return nil
}

func (h handler) CallTool(ctx context.Context, call endpoint.ToolCall) (json.RawMessage, error) {
	res, _, err := h.c.CallTool(ctx, call.Server, call.Tool, call.Arguments, true)
	if err != nil {
		return nil, err
	}
	return res.Raw, nil
}

// Servers tells `elicitdesk servers` where each connection stands, when
// it asks of the servers.json the core reads.
func (h handler) Servers(_ context.Context, q endpoint.ServersQuery) ([]endpoint.ServerStatus, error) {
	own, _ := filepath.Abs(h.c.opts.ConfigPath)
	if q.Config != "" && q.Config != own && !atomicfile.SameFile(q.Config, own) {
		return nil, endpoint.OtherConfig(own)
	}
	var list []endpoint.ServerStatus
	for _, s := range h.c.Statuses() {
		st := endpoint.ServerStatus{Name: s.Name, State: string(s.State), Since: s.Since}
		if s.Err != nil {
			x := servers.Explain(s.Err, s.Stderr)
			st.Error = x.Summary
			if d := string(x.Details); d != x.Summary {
				st.Details = d
			}
		}
		list = append(list, st)
	}
	return list, nil
}

// Traffic lists what passed on the connections to the configured
// servers, waiting for news when asked to.
func (h handler) Traffic(ctx context.Context, q endpoint.TrafficQuery) ([]traffic.Entry, error) {
	return h.c.Traffic(ctx, q.After, q.Wait)
}

// BridgeTraffic keeps what a bridge saw pass between one of its sessions
// and the session's server (traffic.Record.AddBridged).
func (h handler) BridgeTraffic(t endpoint.BridgeTraffic) {
	h.c.traffic.AddBridged(h.session(t.Session), t.Entries, t.Bodies, t.Headers)
}

// Elicit asks a bridged server's elicitation in the person's windows. A
// refusal goes back as a *jsonrpc.Error, its code, message and data, which
// the bridge sends to the server whole.
func (h handler) Elicit(ctx context.Context, q endpoint.Question) (json.RawMessage, error) {
	res, err := h.c.Elicit(ctx, h.session(q.Session.ID), h.identity(q.Session), q.Params)
	return res, err
}

// Unshown keeps a bridged server's elicitation that no window could show,
// so that while the core runs it alone writes the history.
func (h handler) Unshown(ctx context.Context, u endpoint.Unshown) error {
	return h.c.Unshown(ctx, UnshownEntry(u))
}

// Bridge lists a host's session through the bridge until it ends.
func (h handler) Bridge(ctx context.Context, b endpoint.Bridged, captureChanged func()) error {
	defer h.c.onCaptureChange(captureChanged)()
	// The endpoint told the bridge once before this watch began: a
	// change made in between is told now.
	captureChanged()
	return h.c.Bridge(ctx, servers.Bridged{ID: h.session(b.ID), Server: h.identity(b), Protocol: b.Protocol, Since: b.Since})
}

// Capturing says whether the core keeps bridged session b's messages.
func (h handler) Capturing(b endpoint.Bridged) bool {
	return h.c.capturing(servers.Bridged{ID: h.session(b.ID), Server: h.identity(b)})
}

func (h handler) Complete(x endpoint.Completion) {
	if !h.c.router.Complete(servers.Identity{Name: x.Server, Machine: h.machine, Session: h.session(x.Session)}, x.ElicitationID) {
		h.c.log.Debug("completion of no open request", "server", x.Server, "id", x.ElicitationID)
	}
}

// Forward serves the connections forwarded from machine (elicitdesk
// remote) at its own socket, from now until the core closes: they may
// only ask, and what they ask is the machine's. A machine served already
// is left as it is.
func (h handler) Forward(_ context.Context, machine string) (string, error) {
	if err := h.c.Forward(machine); err != nil {
		return "", err
	}
	return endpoint.ForwardedPath(machine) // where the core serves it, whatever the caller's environment says
}

// Unforward stops serving machine, as Block does.
func (h handler) Unforward(_ context.Context, machine string) error {
	return h.c.Block(machine)
}

// Forward serves machine's forwarded connections (handler.Forward).
func (c *Core) Forward(machine string) error {
	c.mu.Lock()
	_, served := c.forwards[machine]
	skip := served || c.ctx.Err() != nil // served already, or closing
	if !skip {
		if c.forwards == nil {
			c.forwards = map[string]*endpoint.Server{}
		}
		c.forwards[machine] = nil // claimed: the socket is made outside the lock
	}
	c.mu.Unlock()
	if skip {
		return nil
	}
	path, err := endpoint.ForwardedPath(machine)
	var s *endpoint.Server
	if err == nil {
		if s, err = endpoint.ListenForwarded(path, handler{c: c, machine: machine}, c.log); err != nil {
			err = fmt.Errorf("cannot serve %s's forward at %s: %w", machine, path, err)
		}
	}
	c.mu.Lock()
	_, claimed := c.forwards[machine] // not if closeForwards or Block ran meanwhile
	if err == nil && claimed {
		c.forwards[machine] = s
	} else {
		delete(c.forwards, machine)
	}
	c.mu.Unlock()
	if err != nil {
		return err
	}
	if !claimed {
		s.Close()
		return nil
	}
	c.log.Info("serving a forward", "machine", machine, "path", path)
	return nil
}

// closeForwards stops serving other machines.
func (c *Core) closeForwards() {
	c.mu.Lock()
	forwards := c.forwards
	c.forwards = nil
	c.mu.Unlock()
	for _, s := range forwards {
		if s != nil { // one being made finds its claim gone, and closes it
			s.Close()
		}
	}
}

// errBridgeGone is why a bridged request goes stale when the bridge stops
// waiting for it.
var errBridgeGone = errors.New("the host stopped waiting for it, or its bridge went away")

// Elicit asks the person an elicitation a bridged server sent (raw, its
// params as sent) in session, exactly as one of the core's own servers':
// the same checks and refusals, recorded in the history, and the same
// limits by server name. It returns the ElicitResult to send back, as JSON;
// a refusal is the JSON-RPC error to send instead. When ctx ends (the
// bridge cancelled or went away) the request goes stale at once.
func (c *Core) Elicit(ctx context.Context, session string, who servers.Identity, raw json.RawMessage) (json.RawMessage, error) {
	if c.ctx.Err() != nil {
		// The endpoint closes next, ending ctx; an answer now would read
		// as a refusal, while the bridge must see the core go away.
		<-ctx.Done()
		return nil, errQuitting
	}
	defer c.bridges.Asking(session)()
	// The request's own context, so that its cause says why in words.
	asking, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	defer cancel(nil)
	gone := errBridgeGone
	if who.Machine != "" { // a name the person gave, checked when the machine was listed
		gone = fmt.Errorf("the connection from %s ended: its host stopped waiting, or the forward or its bridge went away", who.Machine)
	}
	defer context.AfterFunc(ctx, func() {
		// A bridge that said why: its server cancelled, as the server
		// said it, or the bridge's own words (its server crashed, its
		// host went), quoted: any program can be a bridge.
		var said *rpc.Cancelled
		if !errors.As(context.Cause(ctx), &said) {
			cancel(gone)
		} else if why, ok := strings.CutPrefix(said.Reason, endpoint.ServerCancelled); ok {
			cancel(&rpc.Cancelled{Reason: strings.TrimPrefix(why, ": ")})
		} else {
			cancel(fmt.Errorf("its bridge said %s", untrusted.Text(said.Reason).Quote()))
		}
	})()
	// Gone with the bridge's connection: its server's link steps are over
	// if it goes (one bridge serving many hosts' sessions keeps it).
	res, err := c.router.AskRaw(servers.AskedOn(asking, rpc.Life(ctx)), who, raw)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

// Bridge lists session s until ctx ends.
func (c *Core) Bridge(ctx context.Context, s servers.Bridged) error {
	c.traffic.Listed(s.ID, s.Server.Name, untrusted.Text(s.Server.Host.Label()))
	remove := c.bridges.Add(s)
	defer remove()
	c.startAhead(s.Server.Name)
	select {
	case <-ctx.Done():
	case <-c.ctx.Done():
	}
	return nil
}

// connectWait is how long a tool call waits for a server still
// connecting, as it is when the core has just started.
const connectWait = 30 * time.Second

// CallTool calls a tool of a connected server; the elicitations the call
// raises are asked in the person's windows. A call waits for a server
// still connecting (the Welcome window's first try comes while the demo
// server starts). When the server answers a script's call -32042, its
// links are asked like URL requests and the error returned: the script
// retries once the person is done. The windows show the links of their
// own calls.
func (c *Core) CallTool(ctx context.Context, server, tool string, args map[string]any, script bool) (*servers.ToolResult, servers.Identity, error) {
	conn, err := c.conn(ctx, server, true)
	if err != nil {
		return nil, servers.Identity{}, err
	}
	if script {
		go c.startAhead(server)
	} else {
		defer c.personCalling(server)()
	}
	res, err := conn.CallTool(ctx, tool, args)
	if ue, ok := servers.AsURLRequired(err); ok && script {
		links, _ := ue.Links()
		for _, p := range links {
			c.wait(c.router.Expect(conn.Identity(), p), true)
		}
	}
	return res, conn.Identity(), err
}

// personCalling notes a tool call of the person's from the windows to
// server as under way, until the func it returns runs.
func (c *Core) personCalling(server string) (done func()) {
	asked := new(bool)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.calling == nil {
		c.calling = map[string][]*bool{}
	}
	c.calling[server] = append(c.calling[server], asked)
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.calling[server] = slices.DeleteFunc(c.calling[server], func(b *bool) bool { return b == asked })
		if len(c.calling[server]) == 0 {
			delete(c.calling, server)
		}
	}
}

// personCalls reports whether a question of who's is the one a tool call
// the person made from the windows asks them: who is a configured server
// with such a call under way whose question is not asked yet, and one of
// the windows has the keyboard, so the person is still there. It then
// opens as theirs, with the keyboard. A call's second question, and one a
// server asks once the person has gone to another application, open as
// any other: a server cannot stall and then take the keyboard.
func (c *Core) personCalls(who servers.Identity) bool {
	if who.Machine != "" || who.Session != "" || who.Host != (servers.HostInfo{}) {
		return false // a bridged or remote server: no call of the windows'
	}
	c.arrivals.mu.Lock()
	focused := c.arrivals.focused
	c.arrivals.mu.Unlock()
	if !focused {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, asked := range c.calling[who.Name] {
		if !*asked {
			*asked = true
			return true
		}
	}
	return false
}

// ShowLinks asks the links of a -32042 error that a tool call of the
// windows' got (each a URL-mode elicitation's params) as requests of the
// person's own, and returns their ids: they open at once, past the window
// limit, with the keyboard.
func (c *Core) ShowLinks(who servers.Identity, links []json.RawMessage) ([]string, error) {
	var ps []servers.Params
	for _, raw := range links {
		p, err := servers.ParseParams(raw)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	ids := make([]string, 0, len(ps))
	for _, p := range ps {
		e := c.router.Expect(who, p)
		c.wait(e, true)
		ids = append(ids, e.ID)
	}
	return ids, nil
}

// Tools lists the tools of a connected server.
func (c *Core) Tools(ctx context.Context, server string) ([]servers.Tool, servers.Identity, error) {
	conn, err := c.conn(ctx, server, false)
	if err != nil {
		return nil, servers.Identity{}, err
	}
	tools, err := conn.Tools(ctx)
	return tools, conn.Identity(), err
}

// conn is server's connection, once it is ready when wait is set.
func (c *Core) conn(ctx context.Context, server string, wait bool) (*servers.Conn, error) {
	if !wait {
		if conn, ok := c.manager.Conn(server); ok {
			return conn, nil
		}
		return nil, fmt.Errorf("%s is not connected; try again once it is ready", server)
	}
	waiting, cancel := context.WithTimeout(ctx, connectWait)
	defer cancel()
	conn, err := c.manager.WaitReady(waiting, server)
	if err != nil {
		return nil, fmt.Errorf("server %q is not connected: see the Servers window", server)
	}
	return conn, nil
}

// BridgedIdentity is who asks through a bridged session: the name and
// target the bridge was given, and what the server and the host said.
func BridgedIdentity(b endpoint.Bridged) servers.Identity {
	return servers.Identity{Name: b.Server, Target: b.Target, Reported: servers.ServerInfo(b.Reported), Host: servers.HostInfo(b.Host)}
}

// UnshownEntry is the history's entry of u, for the bridge and the core
// alike.
func UnshownEntry(u endpoint.Unshown) history.Entry {
	p := servers.LooseParams(u.Question.Params)
	e := history.Entry{
		Server: BridgedIdentity(u.Question.Session), Message: p.Message, Mode: p.Mode, Schema: p.Schema, URL: p.URL,
		Outcome: history.NoWindow, Reason: "answered cancel without asking: " + u.Reason,
		Received: u.At, Answered: u.At,
	}
	if u.ToHost {
		e.Outcome, e.Reason = history.ToHost, "given to the host, which answered it its own way: "+u.Reason
	}
	return e
}
