package serversview

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/servers"
)

// mcpTools and mcpResult give the window's code, still written against
// mcp-go's types, the project's own that Servers now returns. They go
// once the window reads servers.Tool and servers.ToolResult itself
// (issue 25, item 1).
func mcpTools(tools []servers.Tool) []mcp.Tool {
	out := make([]mcp.Tool, 0, len(tools))
	for _, t := range tools {
		var m mcp.Tool
		if json.Unmarshal(t.Raw, &m) != nil {
			m = mcp.Tool{Name: t.Name, Description: string(t.Description)}
		}
		m.InputSchema, m.RawInputSchema = mcp.ToolInputSchema{}, t.InputSchema
		if t.OutputSchema != nil {
			m.OutputSchema, m.RawOutputSchema = mcp.ToolOutputSchema{}, t.OutputSchema
		}
		out = append(out, m)
	}
	return out
}

func mcpResult(res *servers.ToolResult) (*mcp.CallToolResult, error) {
	if res == nil {
		return nil, nil
	}
	raw := res.Raw
	return mcp.ParseCallToolResult(&raw)
}
