package core

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// Remote is the core as the windows' process reaches it: over the private
// connection the core started the process with.
type Remote struct {
	peer *rpc.Peer

	mu       sync.Mutex
	to       Events // nil until Attach
	statuses []servers.Status
	bridged  []servers.Bridged
}

// NewRemote reaches the core through conn, the windows' end of the
// private connection.
func NewRemote(conn io.ReadWriteCloser) *Remote {
	r := &Remote{}
	r.peer = rpc.New(link.NewLines(conn, conn), rpc.Options{Notification: r.hear})
	return r
}

// Attach tells to what the core tells the windows, in order, until ctx
// ends or the connection does: the windows are ready. The connection ends
// with it.
func (r *Remote) Attach(ctx context.Context, to Events) error {
	r.mu.Lock()
	r.to = to
	r.mu.Unlock()
	defer r.peer.Close()
	_, err := r.peer.Call(ctx, methodAttach, nil)
	return err
}

// paramsOf reads the params of notification m as a T, in one pass over
// the message.
func paramsOf[T any](m link.Message) (T, bool) {
	var in struct{ Params T }
	err := json.Unmarshal(m.Raw, &in)
	return in.Params, err == nil
}

// hear passes one of the core's notifications on, in order, keeping the
// state the windows read back. It runs on the connection's reader.
func (r *Remote) hear(m link.Message) {
	r.mu.Lock()
	to := r.to
	r.mu.Unlock()
	if to == nil {
		return // not attached: nothing is told before
	}
	switch m.Method {
	case tellOpen:
		if o, ok := paramsOf[opening](m); ok {
			to.Open(o.Request, o.By)
		}
	case tellEnded:
		if e, ok := paramsOf[ended](m); ok {
			to.Ended(e.ID, e.Answered, e.Cause)
		}
	case tellCompleted:
		if p, ok := paramsOf[completion](m); ok {
			to.Completed(p.ID, p.Gone)
		}
	case tellWaiting:
		if n, ok := paramsOf[Count](m); ok {
			to.Waiting(n)
		}
	case tellServers:
		if p, ok := paramsOf[serversParams](m); ok {
			list := make([]servers.Status, 0, len(p.Servers))
			for _, w := range p.Servers {
				list = append(list, w.status())
			}
			r.mu.Lock()
			r.statuses = list
			r.mu.Unlock()
			to.Servers(list)
		}
	case tellBridges:
		if p, ok := paramsOf[bridgesParams](m); ok {
			r.mu.Lock()
			r.bridged = p.Bridges
			r.mu.Unlock()
			to.Bridges(p.Bridges)
		}
	case tellHistory:
		to.HistoryChanged()
	case tellShow:
		if s, ok := paramsOf[Show](m); ok {
			to.Show(s)
		}
	case tellQuit:
		to.Quit()
	case tellNotify:
		if n, ok := paramsOf[notify.Notice](m); ok {
			to.Notify(n)
		}
	case tellTray:
		if p, ok := paramsOf[trayParams](m); ok {
			to.Tray(p.Shown)
		}
	}
}

// call calls the core and decodes its result into result when not nil.
func (r *Remote) call(ctx context.Context, method string, params, result any) error {
	raw, err := r.peer.Call(ctx, method, params)
	if err != nil {
		return known(err)
	}
	if result == nil {
		return nil
	}
	return json.Unmarshal(raw, result)
}

// callTimeout bounds the windows' short calls, so that a core that hangs
// does not freeze a window.
const callTimeout = 10 * time.Second

func (r *Remote) short(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return r.call(ctx, method, params, result)
}

func (r *Remote) Answer(id string, res forms.Result) error {
	return r.short(methodAnswer, answerParams{ID: id, Result: res}, nil)
}

// Leave asks the core to let the windows' process exit, having taken
// taken of its events since attaching, and reports whether it may: not
// while the core has told it something more, such as a Show that would
// be lost with it. Once let go, the process is told nothing more; the
// core tells the next one.
func (r *Remote) Leave(ctx context.Context, taken int) bool {
	var ok bool
	return r.call(ctx, methodLeave, leaveParams{taken}, &ok) == nil && ok
}

// Closed tells the core that the window of request id's opening-th
// opening closed unanswered.
func (r *Remote) Closed(id string, opening int) {
	r.notify(methodClosed, closedParams{id, opening})
}

// Focused tells the core whether one of the windows has the keyboard:
// requests that arrive then need no notification.
func (r *Remote) Focused(on bool) { r.notify(methodFocus, focusParams{on}) }

func (r *Remote) notify(method string, params any) {
	r.peer.Notify(context.Background(), method, params)
}

func (r *Remote) Show(s Show) { r.short(methodShow, s, nil) }

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

func (r *Remote) Restart(name string) bool {
	var ok bool
	return r.short(methodRestart, serverParams{name}, &ok) == nil && ok
}

func (r *Remote) SignIn(ctx context.Context, name string, progress func(signin.Status)) error {
	progress(signin.Status{Phase: signin.WaitingForBrowser})
	return r.call(ctx, methodSignIn, serverParams{name}, nil)
}

func (r *Remote) SignOut(name string) error { return r.short(methodSignOut, serverParams{name}, nil) }

func (r *Remote) Tools(ctx context.Context, server string) ([]servers.Tool, servers.Identity, error) {
	var res toolsResult
	if err := r.call(ctx, methodTools, serverParams{server}, &res); err != nil {
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
	err := r.call(ctx, methodCall, callParams{Server: server, Tool: tool, Arguments: args}, &res)
	if err != nil { // a -32042 stays the *jsonrpc.Error servers.AsURLRequired reads
		return nil, servers.Identity{}, err
	}
	out, err := servers.ParseToolResult(res.Result)
	return out, res.Identity, err
}

func (r *Remote) SetHistoryLimits(ctx context.Context, l HistoryLimits) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	return r.call(ctx, methodLimits, l, nil)
}

func (r *Remote) ClearHistory(ctx context.Context) error { return r.call(ctx, methodClear, nil, nil) }

func (r *Remote) SetWindowPrefs(p WindowPrefs) error { return r.short(methodPrefs, p, nil) }

func (r *Remote) SetTrafficPrefs(p TrafficPrefs) error { return r.short(methodCapture, p, nil) }

func (r *Remote) Block(machine string) error {
	return r.short(methodBlock, machineParams{Machine: machine}, nil)
}

func (r *Remote) Traffic(ctx context.Context, after uint64, wait bool) ([]traffic.Entry, error) {
	var list []traffic.Entry
	err := r.call(ctx, methodTraffic, trafficParams{After: after, Wait: wait}, &list)
	return list, err
}

func (r *Remote) ShowLinks(who servers.Identity, links []json.RawMessage) ([]string, error) {
	var ids []string
	err := r.short(methodLinks, linksParams{Server: who, Links: links}, &ids)
	return ids, err
}

func (r *Remote) HistoryNotice() string {
	var notice string
	r.short(methodNotice, nil, &notice)
	return notice
}

func (r *Remote) NotificationsProblem() string {
	var problem string
	r.short(methodNoNotes, nil, &problem)
	return problem
}

func (r *Remote) Quit() { r.short(methodQuit, nil, nil) }
