package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// answer is a client's reply to one elicitation, as the tools report it:
// exactly the action and content that came back.
type answer struct {
	Action  mcp.ElicitationResponseAction `json:"action"`
	Content any                           `json:"content,omitempty"`
}

func answerOf(r *mcp.ElicitationResult) answer {
	return answer{Action: r.Action, Content: r.Content}
}

// said puts an action into words for a headline.
func said(a mcp.ElicitationResponseAction) string {
	switch a {
	case mcp.ElicitationResponseActionAccept:
		return "accepted"
	case mcp.ElicitationResponseActionDecline:
		return "declined"
	case mcp.ElicitationResponseActionCancel:
		return "cancelled"
	default:
		return fmt.Sprintf("answered with the unknown action %q", a)
	}
}

// report builds a tool result whose text is a headline, a newline and v as
// JSON, and whose structuredContent is v: people read the first line,
// programs parse the rest.
func report(headline string, v any) *mcp.CallToolResult {
	body, err := json.Marshal(v)
	if err != nil {
		return mcp.NewToolResultErrorf("cannot encode the answer: %v", err)
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.NewTextContent(headline + "\n" + string(body))},
		StructuredContent: v,
	}
}

// form returns the parameters of a form-mode elicitation. The schema is kept
// as written, since mcp-go's RequestedSchema is an `any` and a Go map would be
// sent with its properties sorted by name.
func form(message, schema string) mcp.ElicitationParams {
	return mcp.ElicitationParams{
		Mode:            mcp.ElicitationModeForm,
		Message:         message,
		RequestedSchema: json.RawMessage(schema),
	}
}

// ask sends elicitation/create and waits for the answer (or for ctx to end).
func (d *demo) ask(ctx context.Context, params mcp.ElicitationParams) (*mcp.ElicitationResult, error) {
	result, err := d.srv.RequestElicitation(ctx, mcp.ElicitationRequest{
		Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
		Params:  params,
	})
	if err != nil {
		return nil, err
	}
	if result == nil {
		return nil, errors.New("the client sent no result")
	}
	return result, nil
}

// failed reports an elicitation that did not get an answer as a tool error,
// which a client shows, rather than a JSON-RPC error, which it may not.
func failed(err error) *mcp.CallToolResult {
	return mcp.NewToolResultErrorf("elicitation/create failed: %v", err)
}

// clientCapabilities returns what the client declared: per request from
// 2026-07-28 on, at initialize before.
func clientCapabilities(ctx context.Context) mcp.ClientCapabilities {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern && info.ClientCapabilities != nil {
		return *info.ClientCapabilities
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return s.GetClientCapabilities()
	}
	return mcp.ClientCapabilities{}
}

// canAsk reports whether the client declared support for an elicitation mode;
// servers must not send any other. An empty elicitation capability means
// form mode only.
func canAsk(ctx context.Context, mode string) bool {
	e := clientCapabilities(ctx).Elicitation
	if e == nil {
		return false
	}
	if mode == mcp.ElicitationModeURL {
		return e.URL != nil
	}
	return e.Form != nil || e.URL == nil
}

// unsupported is the result of a tool the client cannot take part in.
func unsupported(mode string) *mcp.CallToolResult {
	return mcp.NewToolResultErrorf("the client did not declare the elicitation capability for %s mode (capabilities.elicitation.%s), so this tool cannot ask it anything", mode, mode)
}

// isModern reports whether the request uses protocol 2026-07-28 or later.
func isModern(ctx context.Context) bool {
	return mcp.IsModernProtocol(server.RequestProtocolVersion(ctx))
}
