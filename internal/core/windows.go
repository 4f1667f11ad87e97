package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// The windows' process and the core talk over a private connection: the
// core makes it (a socket pair; pipes on Windows) and hands the other end
// to the process it starts, so no other process can be the windows. Both
// sides are one rpc.Peer over link.Lines. The core tells the windows what
// happens with the notifications below, in order; the windows call the
// core with the ui/ methods. Nothing of this is served on the public
// endpoint.
const (
	tellOpen      = "windows/open"      // params opening
	tellEnded     = "windows/ended"     // params ended
	tellCompleted = "windows/completed" // params completion
	tellWaiting   = "windows/waiting"   // params Count
	tellServers   = "windows/servers"   // params serversParams
	tellBridges   = "windows/bridges"   // params bridgesParams
	tellHistory   = "windows/history"   // no params
	tellShow      = "windows/show"      // params Show
	tellQuit      = "windows/quit"      // no params
	tellNotify    = "windows/notify"    // params notify.Notice
	tellTray      = "windows/tray"      // params trayParams

	methodAttach  = "ui/attach"          // pending while the windows are attached
	methodAnswer  = "ui/answer"          // params answerParams
	methodClosed  = "ui/closed"          // a notification: params closedParams
	methodLeave   = "ui/leave"           // params leaveParams; result bool
	methodShow    = "ui/show"            // params Show
	methodRetry   = "ui/retry"           // params serverParams; result bool
	methodRestart = "ui/restart"         // params serverParams; result bool
	methodSignIn  = "ui/signin"          // params serverParams
	methodSignOut = "ui/signout"         // params serverParams
	methodBlock   = "ui/block"           // params machineParams
	methodTools   = "ui/tools"           // params serverParams; result toolsResult
	methodCall    = "ui/call"            // params callParams; result callResult
	methodLimits  = "ui/history"         // params HistoryLimits
	methodClear   = "ui/clear"           // the history: every entry
	methodPrefs   = "ui/prefs"           // params WindowPrefs
	methodCapture = "ui/capture"         // params TrafficPrefs
	methodTraffic = "ui/traffic"         // params trafficParams; result []traffic.Entry
	methodFocus   = "ui/focus"           // a notification: params focusParams
	methodLinks   = "ui/links"           // params linksParams; result []string
	methodNotice  = "ui/notice"          // result string
	methodNoNotes = "ui/nonotifications" // result string
	methodQuit    = "ui/quit"
)

// machineParams name another machine (elicitdesk remote).
type machineParams struct {
	Machine string `json:"machine"`
}

type trayParams struct {
	Shown bool `json:"shown"`
}

// leaveParams: the windows' process asks to exit, having taken Taken of
// the core's events since it attached.
type leaveParams struct {
	Taken int `json:"taken"`
}

type focusParams struct {
	Focused bool `json:"focused"`
}

type closedParams struct {
	ID      string `json:"id"`
	Opening int    `json:"opening"` // Request.Opening
}

type serversParams struct {
	Servers []wireStatus `json:"servers"`
}

type bridgesParams struct {
	Bridges []servers.Bridged `json:"bridges"`
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

// maxStatus bounds one server's status, and who asks in a request, as the
// windows are told them. What a peer says of itself is cut when parsed;
// one still larger is told as an error of that server's, or without the
// peer's own words, so that it never holds back the others.
const maxStatus = 256 << 10

// fitIdentity is who asks as the windows are told it: who, or, when what
// the server and host say of themselves is larger than maxStatus, only
// what the person configured.
func fitIdentity(who servers.Identity) servers.Identity {
	if b, err := json.Marshal(who); err == nil && len(b) <= maxStatus {
		return who
	}
	return servers.Identity{Name: who.Name, Target: who.Target}
}

// fitStatus is s as the windows are told it: s, or an error in its place
// when it is larger than maxStatus.
func fitStatus(s servers.Status) wireStatus {
	w := toWire(s)
	if b, err := json.Marshal(w); err == nil && len(b) <= maxStatus {
		return w
	}
	return wireStatus{Name: s.Name, State: servers.StateFailed, Since: s.Since,
		Err: &wireExplained{Summary: "What this server says about itself is too large to show."}}
}

// maxBridges bounds the list of bridged sessions as the windows are told
// it. Each session's words are cut when parsed, but any process that
// calls itself a bridge may open sessions: those past the bound are left
// out, the newest first, so that the list still reaches the windows.
const maxBridges = 4 << 20

// fitBridges is the head of list, oldest first, that fits maxBridges.
func fitBridges(list []servers.Bridged) []servers.Bridged {
	size := 0
	for i, b := range list {
		raw, err := json.Marshal(b)
		if size += len(raw); err != nil || size > maxBridges {
			return list[:i]
		}
	}
	return list
}

type answerParams struct {
	ID     string       `json:"id"`
	Result forms.Result `json:"result"`
}

type linksParams struct {
	Server servers.Identity  `json:"server"`
	Links  []json.RawMessage `json:"links"` // URL-mode elicitations' params
}

// trafficParams ask for the traffic entries numbered after After;
// Wait: when there is none yet, for the next, within trafficWait.
type trafficParams struct {
	After uint64 `json:"after"`
	Wait  bool   `json:"wait,omitempty"`
}

// trafficWait bounds how long the windows' ask for traffic waits for
// news: they ask again.
const trafficWait = 30 * time.Second

type serverParams struct {
	Server string `json:"server"`
}

type callParams struct {
	Server    string         `json:"server"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments,omitempty"`
}

type toolsResult struct {
	Tools    []json.RawMessage `json:"tools"`
	Identity servers.Identity  `json:"identity"`
}

type callResult struct {
	Result   json.RawMessage  `json:"result"`
	Identity servers.Identity `json:"identity"`
}

// ServeWindows serves the windows' process on conn, its private
// connection, until either side closes it or ctx ends. Once the process
// has its windows ready it attaches (ui/attach, a call that stays pending):
// it is the windows while that lasts, and newer windows replace it.
func (c *Core) ServeWindows(ctx context.Context, conn io.ReadWriteCloser) error {
	var (
		peer *rpc.Peer
		as   atomic.Pointer[teller] // the windows, once attached
	)
	made := make(chan struct{}) // peer is set
	methods := c.uiMethods()
	methods[methodAttach] = func(rctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		<-made
		t := &teller{rctx, peer, c}
		as.Store(t)
		err := c.Attach(rctx, t)
		return json.RawMessage("{}"), err
	}
	methods[methodLeave] = rpc.Typed(func(_ context.Context, p leaveParams) (bool, error) {
		t := as.Load()
		return t == nil || c.feed.letGo(t, p.Taken), nil // never attached: nothing to lose
	})
	peer = rpc.New(link.NewLines(conn, conn), rpc.Options{
		Methods:      methods,
		Notification: func(m link.Message) { c.hearUI(m) },
		Log:          c.log,
	})
	close(made)
	defer context.AfterFunc(ctx, func() { peer.Close() })()
	<-peer.Done()
	peer.Close()
	return peer.Err()
}

// teller tells the windows' process each event as a notification, in
// order: the feed calls it from one goroutine at a time.
type teller struct {
	ctx  context.Context
	peer *rpc.Peer
	c    *Core
}

func (t teller) tell(method string, params any) {
	if err := t.peer.Notify(t.ctx, method, params); err != nil {
		t.c.log.Debug("the windows were not told", "method", method, "err", err)
	}
}

func (t teller) Open(r Request, by Opener) {
	r.Server = fitIdentity(r.Server)
	t.tell(tellOpen, opening{Request: r, By: by})
}
func (t teller) Ended(id string, answered bool, cause string) {
	t.tell(tellEnded, ended{ID: id, Answered: answered, Cause: cause})
}
func (t teller) Completed(id string, gone bool) {
	t.tell(tellCompleted, completion{ID: id, Gone: gone})
}
func (t teller) Waiting(n Count) { t.tell(tellWaiting, n) }
func (t teller) Servers(list []servers.Status) {
	p := serversParams{Servers: make([]wireStatus, 0, len(list))}
	for _, s := range list {
		p.Servers = append(p.Servers, fitStatus(s))
	}
	t.tell(tellServers, p)
}
func (t teller) Bridges(list []servers.Bridged) {
	p := bridgesParams{Bridges: fitBridges(list)}
	if left := len(list) - len(p.Bridges); left > 0 {
		t.c.log.Warn("the windows list only the oldest bridged sessions", "listed", len(p.Bridges), "left out", left)
	}
	t.tell(tellBridges, p)
}
func (t teller) HistoryChanged()        { t.tell(tellHistory, nil) }
func (t teller) Show(s Show)            { t.tell(tellShow, s) }
func (t teller) Quit()                  { t.tell(tellQuit, nil) }
func (t teller) Notify(n notify.Notice) { t.tell(tellNotify, n) }
func (t teller) Tray(shown bool)        { t.tell(tellTray, trayParams{shown}) }

// hearUI takes a notification of the windows'.
func (c *Core) hearUI(m link.Message) {
	switch m.Method {
	case methodClosed:
		p := gjson.GetManyBytes(m.Raw, "params.id", "params.opening")
		c.Closed(p[0].String(), int(p[1].Int()))
	case methodFocus:
		c.Focused(gjson.GetBytes(m.Raw, "params.focused").Bool())
	}
}

// done is the result of a call of the windows' that returns nothing else.
type done struct{}

// uiMethods answer the calls of the windows' but ui/attach and ui/leave,
// which belong to one connection (ServeWindows).
func (c *Core) uiMethods() map[string]rpc.Handler {
	return map[string]rpc.Handler{
		methodAnswer: rpc.Typed(func(_ context.Context, p answerParams) (done, error) { return done{}, c.Answer(p.ID, p.Result) }),
		methodShow:   rpc.Typed(func(_ context.Context, s Show) (done, error) { c.Show(s); return done{}, nil }),
		methodLimits: rpc.Typed(func(ctx context.Context, l HistoryLimits) (done, error) { return done{}, c.SetHistoryLimits(ctx, l) }),
		methodPrefs:  rpc.Typed(func(_ context.Context, p WindowPrefs) (done, error) { return done{}, c.SetWindowPrefs(p) }),
		methodBlock:  rpc.Typed(func(_ context.Context, p machineParams) (done, error) { return done{}, c.Block(p.Machine) }),
		methodCapture: rpc.Typed(func(_ context.Context, p TrafficPrefs) (done, error) {
			return done{}, c.SetTrafficPrefs(p)
		}),
		methodTraffic: rpc.Typed(c.uiTraffic),
		methodLinks: rpc.Typed(func(_ context.Context, p linksParams) ([]string, error) {
			return c.ShowLinks(p.Server, p.Links)
		}),
		methodCall: rpc.Typed(func(ctx context.Context, p callParams) (callResult, error) {
			res, who, err := c.CallTool(ctx, p.Server, p.Tool, p.Arguments, false)
			if err != nil {
				return callResult{}, err // a -32042 keeps its code and data for the window
			}
			return callResult{Result: res.Raw, Identity: who}, nil
		}),
		methodRetry:   rpc.Typed(func(_ context.Context, p serverParams) (bool, error) { return c.Retry(p.Server), nil }),
		methodRestart: rpc.Typed(func(_ context.Context, p serverParams) (bool, error) { return c.Restart(p.Server), nil }),
		methodSignIn: rpc.Typed(func(ctx context.Context, p serverParams) (done, error) {
			return done{}, c.SignIn(ctx, p.Server, func(signin.Status) {})
		}),
		methodSignOut: rpc.Typed(func(_ context.Context, p serverParams) (done, error) { return done{}, c.SignOut(p.Server) }),
		methodTools:   rpc.Typed(c.uiTools),
		methodClear:   bare(func(ctx context.Context) (done, error) { return done{}, c.ClearHistory(ctx) }),
		methodNotice:  bare(func(context.Context) (string, error) { return c.HistoryNotice(), nil }),
		methodNoNotes: bare(func(context.Context) (string, error) { return c.NotificationsProblem(), nil }),
		methodQuit:    bare(func(context.Context) (done, error) { c.Quit(); return done{}, nil }),
	}
}

// bare is a Handler of f, for a call that takes no params: any sent are
// not read.
func bare[R any](f func(ctx context.Context) (R, error)) rpc.Handler {
	return func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		r, err := f(ctx)
		if err != nil {
			return nil, err
		}
		return json.Marshal(r)
	}
}

// uiTraffic answers ui/traffic: the facts after p.After, waiting a while
// for new ones if p.Wait.
func (c *Core) uiTraffic(ctx context.Context, p trafficParams) ([]traffic.Entry, error) {
	if p.Wait {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, trafficWait)
		defer cancel()
	}
	list, err := c.Traffic(ctx, p.After, p.Wait)
	if p.Wait && errors.Is(err, context.DeadlineExceeded) {
		return []traffic.Entry{}, nil // nothing new: the windows ask again
	}
	return list, err
}

// uiTools answers ui/tools: the server's tools as it listed them.
func (c *Core) uiTools(ctx context.Context, p serverParams) (toolsResult, error) {
	tools, who, err := c.Tools(ctx, p.Server)
	if err != nil {
		return toolsResult{}, err
	}
	res := toolsResult{Identity: who}
	for _, t := range tools {
		res.Tools = append(res.Tools, t.Raw)
	}
	return res, nil
}

// known is err as the core returned it, when the windows get one of its
// own errors back over the connection: ErrNotWaiting, or one wrapping
// ErrRefused, in the core's words.
func known(err error) error {
	e := jsonrpc.As(err)
	switch {
	case e == nil:
		return err
	case e.Message == ErrNotWaiting.Error():
		return ErrNotWaiting
	case strings.HasPrefix(e.Message, ErrRefused.Error()+": "):
		return fmt.Errorf("%w%s", ErrRefused, strings.TrimPrefix(e.Message, ErrRefused.Error()))
	}
	return err
}
