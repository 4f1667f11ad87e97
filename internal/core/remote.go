package core

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// The UI's methods on the endpoint. A UI process attaches with methodAttach,
// a request that stays pending while it is the UI, and fetches what it is
// told with methodNext, a long poll: events carry a sequence number, and
// each poll acknowledges those before After.
const (
	methodAttach  = "ui/attach"  // params attachParams; pending until the UI detaches
	methodNext    = "ui/next"    // params nextParams; result nextResult, once there is one
	methodAnswer  = "ui/answer"  // params answerParams
	methodRetry   = "ui/retry"   // params serverParams; result bool
	methodSignIn  = "ui/signin"  // params serverParams
	methodSignOut = "ui/signout" // params serverParams
	methodTools   = "ui/tools"   // params serverParams; result toolsResult
	methodCall    = "ui/call"    // params endpoint.ToolCall; result callResult
	methodLimits  = "ui/history" // params HistoryLimits
	methodClear   = "ui/clear"   // the history: every entry
	methodNotice  = "ui/notice"  // result string
	methodQuit    = "ui/quit"
)

type attachParams struct {
	Token string `json:"token"` // the UI's own, naming it in ui/next
}

type nextParams struct {
	Token string `json:"token"`
	After int    `json:"after"` // the events up to After were handled
}

type nextResult struct {
	Events []wireEvent `json:"events"`
}

// wireEvent is an event on the wire; exactly one field but Seq is set.
type wireEvent struct {
	Seq       int               `json:"seq"`
	Request   *Request          `json:"request,omitempty"`
	Ended     *ended            `json:"ended,omitempty"`
	Completed *completion       `json:"completed,omitempty"`
	Servers   []wireStatus      `json:"servers,omitempty"`
	NoServers bool              `json:"noServers,omitempty"` // Servers with an empty list
	Bridges   []servers.Bridged `json:"bridges,omitempty"`
	NoBridges bool              `json:"noBridges,omitempty"`
	History   bool              `json:"history,omitempty"`
	Show      *Show             `json:"show,omitempty"`
	Quit      bool              `json:"quit,omitempty"`
}

// wireStatus is a servers.Status whose error is sent put in words.
type wireStatus struct {
	Name        string           `json:"name"`
	State       servers.State    `json:"state"`
	Err         *wireExplained   `json:"err,omitempty"`
	Since       time.Time        `json:"since"`
	FailedSince time.Time        `json:"failedSince"`
	RetryAt     time.Time        `json:"retryAt"`
	Identity    servers.Identity `json:"identity"`
	Protocol    string           `json:"protocol,omitempty"`
	SignedIn    bool             `json:"signedIn,omitempty"`
	Stderr      string           `json:"stderr,omitempty"`
}

type wireExplained struct {
	Summary string `json:"summary"`
	Details string `json:"details"`
}

func toWire(s servers.Status) wireStatus {
	w := wireStatus{Name: s.Name, State: s.State, Since: s.Since, FailedSince: s.FailedSince, RetryAt: s.RetryAt,
		Identity: s.Identity, Protocol: s.Protocol, SignedIn: s.SignedIn, Stderr: s.Stderr}
	if s.Err != nil {
		x := servers.Explain(s.Err, s.Stderr)
		w.Err = &wireExplained{Summary: x.Summary, Details: string(x.Details)}
	}
	return w
}

func (w wireStatus) status() servers.Status {
	s := servers.Status{Name: w.Name, State: w.State, Since: w.Since, FailedSince: w.FailedSince, RetryAt: w.RetryAt,
		Identity: w.Identity, Protocol: w.Protocol, SignedIn: w.SignedIn, Stderr: w.Stderr}
	if w.Err != nil {
		s.Err = &servers.Explained{Summary: w.Err.Summary, Details: untrusted.Text(w.Err.Details)}
	}
	return s
}

type answerParams struct {
	ID     string       `json:"id"`
	Result forms.Result `json:"result"`
}

type serverParams struct {
	Server string `json:"server"`
}

type toolsResult struct {
	Tools    []json.RawMessage `json:"tools"`
	Identity servers.Identity  `json:"identity"`
}

type callResult struct {
	Result   json.RawMessage  `json:"result"`
	Identity servers.Identity `json:"identity"`
}

// remotes are the sinks of the remote UIs attached, by their tokens.
type remotes struct {
	mu      sync.Mutex
	sinks   map[string]*uiSink
	changed chan struct{} // closed at the next put
}

// put keeps sink as token's; nil forgets it.
func (r *remotes) put(token string, sink *uiSink) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sinks == nil {
		r.sinks = map[string]*uiSink{}
	}
	if sink == nil {
		delete(r.sinks, token)
	} else {
		r.sinks[token] = sink
	}
	if r.changed != nil {
		close(r.changed)
		r.changed = nil
	}
}

// wait returns token's sink, waiting until ctx ends for its attach, which
// may reach the core after the UI's first ui/next.
func (r *remotes) wait(ctx context.Context, token string) (*uiSink, error) {
	for {
		r.mu.Lock()
		sink, ok := r.sinks[token]
		if r.changed == nil {
			r.changed = make(chan struct{})
		}
		changed := r.changed
		r.mu.Unlock()
		if ok {
			return sink, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// uiSink is an attached remote UI's events, kept until it acknowledges
// them.
type uiSink struct {
	mu     sync.Mutex
	events []wireEvent
	seq    int
	more   chan struct{} // closed at the next event
}

func newSink() *uiSink { return &uiSink{more: make(chan struct{})} }

func (s *uiSink) add(ev wireEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	ev.Seq = s.seq
	s.events = append(s.events, ev)
	close(s.more)
	s.more = make(chan struct{})
}

// next drops what the UI handled and returns what follows, waiting for it.
func (s *uiSink) next(ctx context.Context, after int) ([]wireEvent, error) {
	for {
		s.mu.Lock()
		for len(s.events) > 0 && s.events[0].Seq <= after {
			s.events = s.events[1:]
		}
		if len(s.events) > 0 {
			evs := s.batch()
			s.mu.Unlock()
			return evs, nil
		}
		more := s.more
		s.mu.Unlock()
		select {
		case <-more:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// batchBytes bounds one ui/next answer, well under endpoint.MaxMessage:
// at attach every pending request is told, each up to the params limit.
const batchBytes = 1 << 20

// batch is the events to send next: at least one, and then as many as fit
// in batchBytes. s.mu is held.
func (s *uiSink) batch() []wireEvent {
	n, size := 0, 0
	for _, ev := range s.events {
		b, err := json.Marshal(ev)
		if err != nil {
			break
		}
		if size += len(b); n > 0 && size > batchBytes {
			break
		}
		n++
	}
	return append([]wireEvent(nil), s.events[:max(n, 1)]...)
}

// Events of an attached remote UI are queued in its sink.
func (s *uiSink) Request(r Request) { s.add(wireEvent{Request: &r}) }
func (s *uiSink) Ended(id string, answered bool, cause string) {
	s.add(wireEvent{Ended: &ended{ID: id, Answered: answered, Cause: cause}})
}
func (s *uiSink) Completed(server, id string) {
	s.add(wireEvent{Completed: &completion{Server: server, ElicitationID: id}})
}
func (s *uiSink) Servers(list []servers.Status) {
	ev := wireEvent{NoServers: len(list) == 0}
	for _, st := range list {
		ev.Servers = append(ev.Servers, toWire(st))
	}
	s.add(ev)
}
func (s *uiSink) Bridges(list []servers.Bridged) {
	s.add(wireEvent{Bridges: list, NoBridges: len(list) == 0})
}
func (s *uiSink) HistoryChanged() { s.add(wireEvent{History: true}) }
func (s *uiSink) Show(w Show)     { s.add(wireEvent{Show: &w}) }
func (s *uiSink) Quit()           { s.add(wireEvent{Quit: true}) }

// serveUI answers a UI process's request on the endpoint.
func (c *Core) serveUI(ctx context.Context, method string, raw json.RawMessage) (any, error) {
	var (
		sp serverParams
		ok = struct{}{}
	)
	switch method {
	case methodAttach:
		var p attachParams
		if err := json.Unmarshal(raw, &p); err != nil || p.Token == "" {
			return nil, errors.New("ui/attach needs a token")
		}
		sink := newSink()
		c.remotes.put(p.Token, sink)
		defer c.remotes.put(p.Token, nil)
		err := c.Attach(ctx, sink)
		if errors.Is(err, errReplaced) {
			return nil, err
		}
		return ok, nil
	case methodNext:
		var p nextParams
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, err
		}
		sink, err := c.remotes.wait(ctx, p.Token)
		if err != nil {
			return nil, err
		}
		evs, err := sink.next(ctx, p.After)
		return nextResult{Events: evs}, err
	case methodAnswer:
		var p answerParams
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, err
		}
		return ok, c.Answer(p.ID, p.Result)
	case methodLimits:
		var l HistoryLimits
		if err := json.Unmarshal(raw, &l); err != nil {
			return nil, err
		}
		return ok, c.SetHistoryLimits(l)
	case methodClear:
		return ok, c.ClearHistory(ctx)
	case methodNotice:
		return c.HistoryNotice(), nil
	case methodQuit:
		c.Quit()
		return ok, nil
	}
	if err := json.Unmarshal(raw, &sp); err != nil {
		return nil, err
	}
	switch method {
	case methodRetry:
		return c.Retry(sp.Server), nil
	case methodSignIn:
		return ok, c.SignIn(ctx, sp.Server, func(signin.Status) {})
	case methodSignOut:
		return ok, c.SignOut(sp.Server)
	case methodTools:
		tools, who, err := c.Tools(ctx, sp.Server)
		if err != nil {
			return nil, err
		}
		res := toolsResult{Identity: who}
		for _, t := range tools {
			res.Tools = append(res.Tools, t.Raw)
		}
		return res, nil
	case methodCall:
		var call endpoint.ToolCall
		if err := json.Unmarshal(raw, &call); err != nil {
			return nil, err
		}
		res, who, err := c.CallTool(ctx, call.Server, call.Tool, call.Arguments, false)
		if err != nil {
			return nil, err // a -32042 keeps its code and data for the window
		}
		return callResult{Result: res.Raw, Identity: who}, nil
	}
	return nil, fmt.Errorf("no method %q", method)
}

// Remote is the core as a UI process reaches it over the endpoint.
type Remote struct {
	c     *endpoint.Client
	token string

	mu       sync.Mutex
	statuses []servers.Status
	bridged  []servers.Bridged
}

// NewRemote reaches the core through c.
func NewRemote(c *endpoint.Client) *Remote {
	return &Remote{c: c, token: rand.Text()}
}

// Attach tells to what the core tells this UI, until ctx ends or the
// connection breaks.
func (r *Remote) Attach(ctx context.Context, to Events) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	attached := make(chan error, 1)
	go func() {
		err := r.c.CallUI(ctx, methodAttach, attachParams{Token: r.token}, nil)
		cancel(err)
		attached <- err
	}()
	after := 0
	for {
		var res nextResult
		if err := r.c.CallUI(ctx, methodNext, nextParams{Token: r.token, After: after}, &res); err != nil {
			cancel(err)
			return <-attached
		}
		for _, ev := range res.Events {
			after = ev.Seq
			r.tell(ev, to)
		}
	}
}

// tell passes ev on, keeping the state the UI reads back.
func (r *Remote) tell(ev wireEvent, to Events) {
	switch {
	case ev.Request != nil:
		to.Request(*ev.Request)
	case ev.Ended != nil:
		to.Ended(ev.Ended.ID, ev.Ended.Answered, ev.Ended.Cause)
	case ev.Completed != nil:
		to.Completed(ev.Completed.Server, ev.Completed.ElicitationID)
	case ev.Servers != nil || ev.NoServers:
		list := make([]servers.Status, 0, len(ev.Servers))
		for _, w := range ev.Servers {
			list = append(list, w.status())
		}
		r.mu.Lock()
		r.statuses = list
		r.mu.Unlock()
		to.Servers(list)
	case ev.Bridges != nil || ev.NoBridges:
		r.mu.Lock()
		r.bridged = ev.Bridges
		r.mu.Unlock()
		to.Bridges(ev.Bridges)
	case ev.History:
		to.HistoryChanged()
	case ev.Show != nil:
		to.Show(*ev.Show)
	case ev.Quit:
		to.Quit()
	}
}

// callTimeout bounds the UI's short calls, so a core that hangs does not
// freeze a window.
const callTimeout = 10 * time.Second

func (r *Remote) short(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return r.c.CallUI(ctx, method, params, result)
}

func (r *Remote) Answer(id string, res forms.Result) error {
	err := r.short(methodAnswer, answerParams{ID: id, Result: res}, nil)
	if e := jsonrpc.As(err); e != nil && e.Message == ErrNotWaiting.Error() {
		return ErrNotWaiting
	}
	return err
}

func (r *Remote) Statuses() []servers.Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.statuses
}

func (r *Remote) Bridged() []servers.Bridged {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.bridged
}

func (r *Remote) Retry(name string) bool {
	var ok bool
	return r.short(methodRetry, serverParams{name}, &ok) == nil && ok
}

func (r *Remote) SignIn(ctx context.Context, name string, progress func(signin.Status)) error {
	progress(signin.Status{Phase: signin.WaitingForBrowser})
	return r.c.CallUI(ctx, methodSignIn, serverParams{name}, nil)
}

func (r *Remote) SignOut(name string) error { return r.short(methodSignOut, serverParams{name}, nil) }

func (r *Remote) Tools(ctx context.Context, server string) ([]servers.Tool, servers.Identity, error) {
	var res toolsResult
	if err := r.c.CallUI(ctx, methodTools, serverParams{server}, &res); err != nil {
		return nil, servers.Identity{}, err
	}
	tools := make([]servers.Tool, 0, len(res.Tools))
	for _, raw := range res.Tools {
		t, err := servers.ParseTool(raw)
		if err != nil {
			return nil, res.Identity, err
		}
		tools = append(tools, t)
	}
	return tools, res.Identity, nil
}

func (r *Remote) CallTool(ctx context.Context, server, tool string, args map[string]any, _ bool) (*servers.ToolResult, servers.Identity, error) {
	var res callResult
	err := r.c.CallUI(ctx, methodCall, endpoint.ToolCall{Server: server, Tool: tool, Arguments: args}, &res)
	if err != nil { // a -32042 stays the *jsonrpc.Error servers.AsURLRequired reads
		return nil, servers.Identity{}, err
	}
	out, err := servers.ParseToolResult(res.Result)
	return out, res.Identity, err
}

func (r *Remote) SetHistoryLimits(l HistoryLimits) error {
	return r.short(methodLimits, l, nil)
}

func (r *Remote) ClearHistory(ctx context.Context) error {
	return r.c.CallUI(ctx, methodClear, nil, nil)
}

func (r *Remote) HistoryNotice() string {
	var notice string
	r.short(methodNotice, nil, &notice)
	return notice
}

func (r *Remote) Quit() { r.short(methodQuit, nil, nil) }
