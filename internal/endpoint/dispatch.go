package endpoint

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// dispatch runs request m with the server's handler and returns its
// result or a JSON-RPC error.
func (s *Server) dispatch(ctx context.Context, m *message) (any, error) {
	switch m.Method {
	case methodFront:
		return struct{}{}, s.h.Front(ctx)
	case methodCallTool:
		var call ToolCall
		if err := json.Unmarshal(m.Params, &call); err != nil || call.Server == "" || call.Tool == "" {
			return nil, errorf(jsonrpc.CodeInvalidParams, "%s needs params with a server and a tool", methodCallTool)
		}
		s.log.Info("tool call from a script", "server", call.Server, "tool", call.Tool)
		return s.h.CallTool(ctx, call)
	case methodServers:
		return s.h.Servers(ctx)
	case methodElicit:
		var q Question
		if err := json.Unmarshal(m.Params, &q); err != nil || q.Session.ID == "" || q.Session.Server == "" || len(q.Params) == 0 {
			return nil, errorf(jsonrpc.CodeInvalidParams, "%s needs params with a session (an id and a server) and the elicitation's params", methodElicit)
		}
		s.log.Debug("elicitation through the bridge", "session", q.Session.ID, "server", q.Session.Server)
		return s.h.Elicit(ctx, q)
	case methodUnshown:
		var u Unshown
		if err := json.Unmarshal(m.Params, &u); err != nil || u.Question.Session.ID == "" || u.Question.Session.Server == "" || len(u.Question.Params) == 0 {
			return nil, errorf(jsonrpc.CodeInvalidParams, "%s needs params with a question (a session and the elicitation's params)", methodUnshown)
		}
		s.log.Debug("unshown elicitation through the bridge", "session", u.Question.Session.ID, "server", u.Question.Session.Server)
		return struct{}{}, s.h.Unshown(ctx, u)
	case methodBridge:
		var b Bridged
		if err := json.Unmarshal(m.Params, &b); err != nil || b.ID == "" || b.Server == "" {
			return nil, errorf(jsonrpc.CodeInvalidParams, "%s needs params with an id and a server", methodBridge)
		}
		s.log.Info("bridged session", "session", b.ID, "server", b.Server, "host", b.Host.Name)
		return struct{}{}, s.h.Bridge(ctx, b)
	case methodHello:
		return nil, errorf(jsonrpc.CodeInvalidRequest, "the handshake is done already")
	}
	if ui, ok := s.h.(UIHandler); ok && strings.HasPrefix(m.Method, uiPrefix) {
		return ui.UI(ctx, m.Method, m.Params)
	}
	return nil, errorf(jsonrpc.CodeMethodNotFound, "no method %q", m.Method)
}

// notify handles notification m; one the server does not know, or whose
// params it cannot read, is dropped: a notification gets no answer.
func (s *Server) notify(m *message) {
	switch m.Method {
	case methodComplete:
		var c Completion
		if err := json.Unmarshal(m.Params, &c); err != nil || c.Server == "" || c.ElicitationID == "" {
			s.log.Debug("endpoint: unreadable notification dropped", "method", m.Method)
			return
		}
		s.h.Complete(c)
	}
}
