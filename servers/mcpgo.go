package servers

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// What Conn's mcp-go client gives, turned into the project's own types
// (Tool, ToolResult, *jsonrpc.Error), so that no caller of Conn sees a
// library's. It goes once Conn speaks MCP without mcp-go.

// toolsOf is tools as the project's Tools, their schemas as mcp-go kept
// them raw (wire.RawSchemas).
func toolsOf(tools []mcp.Tool) ([]Tool, error) {
	out := make([]Tool, 0, len(tools))
	for _, t := range tools {
		raw, err := json.Marshal(t)
		if err != nil {
			return nil, fmt.Errorf("tool %q: %w", t.Name, err)
		}
		tool, err := ParseTool(raw)
		if err != nil {
			return nil, err
		}
		out = append(out, tool)
	}
	return out, nil
}

// resultOf is a tools/call's outcome as the project's types: the result
// as a ToolResult, and a -32042 error, which mcp-go decodes into its own
// type, as the *jsonrpc.Error that AsURLRequired reads.
func resultOf(res *mcp.CallToolResult, err error) (*ToolResult, error) {
	var ue mcp.URLElicitationRequiredError
	if errors.As(err, &ue) {
		data, merr := json.Marshal(struct {
			Elicitations []mcp.ElicitationParams `json:"elicitations"`
		}{ue.Elicitations})
		if merr != nil {
			return nil, fmt.Errorf("%w (its elicitations cannot be read: %v)", err, merr)
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeURLRequired, Message: ue.Error(), Data: data}
	}
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("reading a tool's result: %w", err)
	}
	return ParseToolResult(raw)
}
