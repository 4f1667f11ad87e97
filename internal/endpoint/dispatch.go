package endpoint

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// request answers one of a peer's requests with the server's handler: its
// result, or a JSON-RPC error, jsonrpc.CodeServer unless the handler's is
// one. A request whose context ended (the peer cancelled it or hung up,
// the app is quitting) gets no answer: a peer still reading sees the
// connection break, not a refusal.
func (s *Server) request(ctx context.Context, p *rpc.Peer, req rpc.Request) (json.RawMessage, error) {
	res, err := s.dispatch(ctx, p, req)
	switch {
	case ctx.Err() != nil:
		return nil, context.Cause(ctx)
	case err != nil && jsonrpc.As(err) == nil:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeServer, Message: err.Error()}
	case err != nil:
		return nil, err
	}
	return rpc.Marshal(res)
}

// forwardedOnly is the data of the error that refuses a forwarded
// connection a method, so that a client tells it from an app that does
// not know the method (Forwarded).
var forwardedOnly = json.RawMessage(`{"forwarded":true}`)

// Forwarded reports whether err refused a method because the connection
// is forwarded from another machine, which may only ask the person: a
// command run there that wants more is told so, not that the app is old.
func Forwarded(err error) bool {
	e := jsonrpc.As(err)
	return e != nil && e.Code == jsonrpc.CodeMethodNotFound && string(e.Data) == string(forwardedOnly)
}

// forwardable are the methods a connection forwarded from another machine
// may call: a bridge's asking, nothing more.
var forwardable = map[string]bool{methodElicit: true, methodBridge: true, methodComplete: true, methodBridgeTraffic: true}

// dispatch runs request req of peer p with the server's handler.
func (s *Server) dispatch(ctx context.Context, p *rpc.Peer, req rpc.Request) (any, error) {
	if s.forwarded && !forwardable[req.Method] {
		s.log.Warn("endpoint: refused a method to a connection from another machine", "method", req.Method)
		e := errorf(jsonrpc.CodeMethodNotFound, "%q is not for a connection forwarded from another machine: it may only ask the person, as a bridge does", req.Method)
		e.Data = forwardedOnly
		return nil, e
	}
	switch req.Method {
	case methodFront:
		return struct{}{}, s.h.Front(ctx)
	case methodForward, methodUnforward:
		var f Forwarding
		if err := json.Unmarshal(req.Params, &f); err != nil || !MachineName(f.Machine) {
			return nil, errorf(jsonrpc.CodeInvalidParams, "%s needs params with a machine: 1 to %d letters, digits, '.', '_' or '-'", req.Method, maxMachine)
		}
		if req.Method == methodUnforward {
			return struct{}{}, s.h.Unforward(ctx, f.Machine)
		}
		path, err := s.h.Forward(ctx, f.Machine)
		if err != nil {
			return nil, err
		}
		return Forwarding{Machine: f.Machine, Path: path}, nil
	case methodCallTool:
		var call ToolCall
		if err := json.Unmarshal(req.Params, &call); err != nil || call.Server == "" || call.Tool == "" {
			return nil, errorf(jsonrpc.CodeInvalidParams, "%s needs params with a server and a tool", methodCallTool)
		}
		s.log.Info("tool call from a script", "server", call.Server, "tool", call.Tool)
		return s.h.CallTool(ctx, call)
	case methodServers:
		var q ServersQuery
		if len(req.Params) > 0 && json.Unmarshal(req.Params, &q) != nil {
			return nil, errorf(jsonrpc.CodeInvalidParams, "%s takes params {\"config\": PATH}", methodServers)
		}
		return s.h.Servers(ctx, q)
	case methodTraffic:
		var q TrafficQuery
		if len(req.Params) > 0 && json.Unmarshal(req.Params, &q) != nil {
			return nil, errorf(jsonrpc.CodeInvalidParams, "%s takes params {\"after\": N, \"wait\": true|false}", methodTraffic)
		}
		if q.Wait {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, TrafficWait)
			defer cancel()
		}
		list, err := s.h.Traffic(ctx, q)
		if q.Wait && errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			return []traffic.Entry{}, nil // nothing new: the follower asks again
		}
		if len(list) > MaxTraffic {
			list = list[len(list)-MaxTraffic:]
		}
		return list, err
	case methodElicit:
		var q Question
		if err := json.Unmarshal(req.Params, &q); err != nil || !sessionID(q.Session.ID) || q.Session.Server == "" || len(q.Params) == 0 {
			return nil, errorf(jsonrpc.CodeInvalidParams, "%s needs params with a session (a server and an id as %s takes) and the elicitation's params", methodElicit, methodBridge)
		}
		s.log.Debug("elicitation through the bridge", "session", q.Session.ID, "server", q.Session.Server)
		return s.h.Elicit(ctx, q)
	case methodUnshown:
		var u Unshown
		if err := json.Unmarshal(req.Params, &u); err != nil || !sessionID(u.Question.Session.ID) || u.Question.Session.Server == "" || len(u.Question.Params) == 0 {
			return nil, errorf(jsonrpc.CodeInvalidParams, "%s needs params with a question (a session and the elicitation's params)", methodUnshown)
		}
		s.log.Debug("unshown elicitation through the bridge", "session", u.Question.Session.ID, "server", u.Question.Session.Server)
		return struct{}{}, s.h.Unshown(ctx, u)
	case methodBridge:
		var b Bridged
		if err := json.Unmarshal(req.Params, &b); err != nil || !sessionID(b.ID) || b.Server == "" {
			return nil, errorf(jsonrpc.CodeInvalidParams, "%s needs params with a server and an id of 1 to %d letters, digits, '.', '_' or '-'", methodBridge, maxSessionID)
		}
		s.log.Info("bridged session", "session", b.ID, "server", b.Server, "host", b.Host.Name)
		changed := make(chan struct{}, 1)
		changed <- struct{}{} // the bridge hears how things stand at once
		go s.tellCapture(ctx, p, b, changed)
		return struct{}{}, s.h.Bridge(ctx, b, func() {
			select {
			case changed <- struct{}{}:
			default: // a change not yet told: it tells what holds then
			}
		})
	case methodHello:
		return nil, errorf(jsonrpc.CodeInvalidRequest, "the handshake is done already")
	}
	if strings.HasPrefix(req.Method, uiPrefix) {
		s.log.Warn("endpoint: refused a method of the windows' process", "method", req.Method)
		return nil, errorf(jsonrpc.CodeMethodNotFound, "%q is a method of the windows' process: the app serves those only on the private connection it starts its windows' process with, never on this endpoint", req.Method)
	}
	return nil, errorf(jsonrpc.CodeMethodNotFound, "no method %q", req.Method)
}

// maxSessionID bounds a bridged session's id, which the bridge chooses.
const maxSessionID = 64

// sessionID: id is one a bridge may choose. The windows show it and put
// it in a filter (session:ID), so it is plain: no space, no control.
func sessionID(id string) bool {
	if id == "" || len(id) > maxSessionID {
		return false
	}
	for _, r := range id {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// captureWait bounds the sending of a Capture: a bridge that reads
// nothing must not hold up the app.
const captureWait = time.Second

// tellCapture tells peer p, whose session b's listing has ctx, whether
// the app keeps b's messages, as the handler says it does after each
// change, in order, until ctx ends: what it sends is always what holds
// when it sends.
func (s *Server) tellCapture(ctx context.Context, p *rpc.Peer, b Bridged, changed <-chan struct{}) {
	told, first := false, true
	for {
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
		if on := s.h.Capturing(b); first || on != told {
			nctx, cancel := context.WithTimeout(ctx, captureWait)
			p.Notify(nctx, methodCapture, Capture{On: on})
			cancel()
			told, first = on, false
		}
	}
}

// notify handles notification m; one the server does not know, or whose
// params it cannot read, is dropped: a notification gets no answer.
func (s *Server) notify(m link.Message) {
	if s.forwarded && !forwardable[m.Method] {
		return
	}
	switch m.Method {
	case methodComplete:
		var n struct {
			Params Completion `json:"params"`
		}
		if err := json.Unmarshal(m.Raw, &n); err != nil || !sessionID(n.Params.Session) || n.Params.Server == "" || n.Params.ElicitationID == "" {
			s.log.Debug("endpoint: unreadable notification dropped", "method", m.Method)
			return
		}
		s.h.Complete(n.Params)
	case methodBridgeTraffic:
		var n struct {
			Params BridgeTraffic `json:"params"`
		}
		if err := json.Unmarshal(m.Raw, &n); err != nil || !sessionID(n.Params.Session) {
			s.log.Debug("endpoint: unreadable notification dropped", "method", m.Method)
			return
		}
		s.h.BridgeTraffic(n.Params)
	}
}

// maxMachine bounds a machine's name, which names its socket.
const maxMachine = 48

// MachineName: name may name a machine the app serves forwarded
// connections for: a host name's letters, short enough for a socket's
// path, and lower case, as host names compare: on a disk that ignores
// case (macOS's), "DevBox" would be devbox's socket.
func MachineName(name string) bool {
	return len(name) <= maxMachine && !strings.HasPrefix(name, ".") && name == strings.ToLower(name) && sessionID(name)
}
