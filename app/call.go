package app

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/servers"
)

// connectWait is how long a script's call waits for a server still
// connecting, as it is when the app has just started.
const connectWait = 30 * time.Second

// CallTool calls a tool of a connected server on behalf of a script; the
// elicitations the call raises are answered in the app's windows. When the
// server answers -32042, its links are shown like URL requests and the
// error returned: the script retries once the person is done.
func (d *Desk) CallTool(ctx context.Context, server, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	waiting, cancel := context.WithTimeout(ctx, connectWait)
	defer cancel()
	conn, err := d.manager.WaitReady(waiting, server)
	if err != nil {
		return nil, fmt.Errorf("server %q is not connected: see the Servers window", server)
	}
	res, err := conn.CallTool(ctx, tool, args)
	if links, _, ok := servers.URLElicitations(err); ok {
		d.showLinks(conn.Identity(), links)
	}
	return res, err
}

// Servers returns where each configured server's connection stands, in
// name order, for `elicitdesk servers`.
func (d *Desk) Servers() []servers.Status { return d.manager.Statuses() }
