package servers

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// Over Streamable HTTP, revision 2026-07-28 (SEP-2243) has a client mirror
// the arguments a tool's inputSchema marks with x-mcp-header into
// Mcp-Param-* headers, and leave out any tool whose marks break the rules.
// mcp-go v1.2.1 does both, but only from the tools it has listed on the
// connection: a call made before any listing, as every `elicitdesk call`
// is, went without the headers, and a tool it left out could still be
// called. So a call lists the tools first when it has not seen its tool.

// mirrorsParams reports whether calls on c carry Mcp-Param-* headers.
func (c *Conn) mirrorsParams() bool {
	return c.cfg.Transport == config.TransportHTTP && mcp.IsModernProtocol(c.ProtocolVersion())
}

// knowTool makes sure mcp-go holds the definition of tool name, whose
// x-mcp-header marks a call mirrors, listing the tools if it has not seen
// it; a tool the listing leaves out is refused.
func (c *Conn) knowTool(ctx context.Context, name string) error {
	if !c.mirrorsParams() || c.listed(name) {
		return nil
	}
	if _, err := c.Tools(ctx); err != nil {
		return fmt.Errorf("listing the tools to learn the headers of %q: %w", name, err)
	}
	if !c.listed(name) {
		return fmt.Errorf("the server lists no tool %q that can be called over HTTP (one whose x-mcp-header marks break the rules is left out)", name)
	}
	return nil
}

// listed reports whether the last listing had tool name.
func (c *Conn) listed(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tools[name]
}

// noteListed records the tools a listing had.
func (c *Conn) noteListed(tools []mcp.Tool) {
	names := make(map[string]bool, len(tools))
	for _, t := range tools {
		names[t.Name] = true
	}
	c.mu.Lock()
	c.tools = names
	c.mu.Unlock()
}
