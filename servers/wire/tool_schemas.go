package wire

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// toolSchemas are the schemas of one tool as the server sent them.
type toolSchemas struct {
	Input, Output json.RawMessage
}

// schemaCollector keeps, for one listing of tools, each tool's schemas as
// the server sent them. mcp-go v1.2.1 decodes a tool's inputSchema into a
// struct of five keywords ($defs, type, properties, required,
// additionalProperties) and drops every other one, such as $schema, allOf
// or if/then/else, which revision 2025-11-25 allows and a client must keep.
type schemaCollector struct {
	mu    sync.Mutex
	tools map[string]toolSchemas
}

type schemasKey struct{}

// WithToolSchemas returns a context that collects the tool schemas of the
// listings made with it, for RawSchemas.
func WithToolSchemas(ctx context.Context) context.Context {
	return context.WithValue(ctx, schemasKey{}, &schemaCollector{tools: map[string]toolSchemas{}})
}

func schemasFrom(ctx context.Context) *schemaCollector {
	c, _ := ctx.Value(schemasKey{}).(*schemaCollector)
	return c
}

// record notes the schemas of a page of a tools/list result.
func (c *schemaCollector) record(result json.RawMessage) {
	var r struct {
		Tools []struct {
			Name         string          `json:"name"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &r) != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range r.Tools {
		c.tools[t.Name] = toolSchemas{Input: t.InputSchema, Output: t.OutputSchema}
	}
}

// RawSchemas gives each of tools, listed with ctx (see WithToolSchemas),
// its schemas as the server sent them in place of mcp-go's decoding.
func RawSchemas(ctx context.Context, tools []mcp.Tool) {
	c := schemasFrom(ctx)
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, t := range tools {
		s := c.tools[t.Name]
		if s.Input != nil {
			tools[i].InputSchema, tools[i].RawInputSchema = mcp.ToolInputSchema{}, s.Input
		}
		if s.Output != nil {
			tools[i].OutputSchema, tools[i].RawOutputSchema = mcp.ToolOutputSchema{}, s.Output
		}
	}
}

// ListedTools names every tool the listings made with ctx (see
// WithToolSchemas) had, as the server sent them: mcp-go leaves out a tool
// whose x-mcp-header marks it can't mirror.
func ListedTools(ctx context.Context) []string {
	c := schemasFrom(ctx)
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Collect(maps.Keys(c.tools))
}
