package endpoint

import (
	"context"
	"encoding/json"
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
			return nil, errorf(codeInvalidParams, "%s needs params with a server and a tool", methodCallTool)
		}
		s.log.Info("tool call from a script", "server", call.Server, "tool", call.Tool)
		return s.h.CallTool(ctx, call)
	case methodHello:
		return nil, errorf(codeInvalidRequest, "the handshake is done already")
	}
	return nil, errorf(codeNoMethod, "no method %q", m.Method)
}
