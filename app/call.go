package app

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// connectWait is how long a script's call waits for a server still
// connecting, as it is when the app has just started.
const connectWait = 30 * time.Second

// CallTool calls a tool of a connected server on behalf of a script; the
// elicitations the call raises are answered in the app's windows.
func (d *Desk) CallTool(ctx context.Context, server, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	waiting, cancel := context.WithTimeout(ctx, connectWait)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if conn, ok := d.manager.Conn(server); ok {
			return conn.CallTool(ctx, tool, args)
		}
		select {
		case <-waiting.Done():
			return nil, fmt.Errorf("server %q is not connected: see the Servers window", server)
		case <-tick.C:
		}
	}
}
