package servers

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/wire"
)

// Over Streamable HTTP, revision 2026-07-28 (SEP-2243) has a client mirror
// the arguments a tool's inputSchema marks with x-mcp-header into
// Mcp-Param-* headers, and leave out any tool whose marks break the rules.
// mcp-go v1.2.1 does both, but only from the tools it has listed on the
// connection: a call made before any listing, as every `elicitdesk call`
// is, went without the headers, and a tool it left out could still be
// called. So a call lists the tools first when it has not seen its tool.

// listTimeout bounds the listing a call makes to learn its tool's marks:
// the call itself may wait on a person for much longer.
const listTimeout = 30 * time.Second

// mirrorsParams reports whether calls on c carry Mcp-Param-* headers.
func (c *Conn) mirrorsParams() bool {
	return c.cfg.Transport == config.TransportHTTP && mcp.IsModernProtocol(c.ProtocolVersion())
}

// knowTool makes sure mcp-go holds the definition of tool name, whose
// x-mcp-header marks a call mirrors, listing the tools page by page until
// it finds it if no listing has yet. It refuses only a tool the server
// lists and mcp-go left out for marks it can't mirror. A tool the server
// does not list is called all the same, for the server to answer; when the
// listing fails, the call goes without the headers.
func (c *Conn) knowTool(ctx context.Context, name string) error {
	if !c.mirrorsParams() {
		return nil
	}
	if held, seen := c.held(name); seen {
		return refusedUnlisted(name, held)
	}
	lctx, cancel := context.WithTimeout(wire.WithToolSchemas(ctx), listTimeout)
	defer cancel()
	var req mcp.ListToolsRequest
	cursors := map[mcp.Cursor]bool{}
	for {
		res, err := c.client.ListToolsByPage(lctx, req)
		if err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			c.log.Warn("listing the tools failed: the call goes without the headers of its x-mcp-header arguments", "tool", name, "err", err)
			return nil
		}
		c.noteListed(lctx, res.Tools)
		if held, seen := c.held(name); seen {
			return refusedUnlisted(name, held)
		}
		if res.NextCursor == "" || cursors[res.NextCursor] {
			return nil
		}
		cursors[res.NextCursor] = true
		req.Params.Cursor = res.NextCursor
	}
}

// refusedUnlisted is the refusal of a tool mcp-go left out, or nil.
func refusedUnlisted(name string, held bool) error {
	if held {
		return nil
	}
	return fmt.Errorf("the server's tool %q is not called: its x-mcp-header marks break the rules of protocol 2026-07-28, so its arguments can't go in headers", name)
}

// held reports whether a listing had tool name, and whether mcp-go kept
// its definition then.
func (c *Conn) held(name string) (held, seen bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	held, seen = c.tools[name]
	return held, seen
}

// noteListed records a listing made with ctx (see wire.WithToolSchemas):
// the tools the server sent, and of them those mcp-go kept. Like mcp-go's
// own store of definitions, it only grows or drops what a later listing
// left out.
func (c *Conn) noteListed(ctx context.Context, kept []mcp.Tool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tools == nil {
		c.tools = map[string]bool{}
	}
	for _, n := range wire.ListedTools(ctx) {
		c.tools[n] = false
	}
	for _, t := range kept {
		c.tools[t.Name] = true
	}
}
