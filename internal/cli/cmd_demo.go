package cli

import (
	"context"
	"fmt"
	"io"
	"os/signal"
	"syscall"

	"github.com/elicitdesk/elicitdesk/servers/demo"
)

// runDemoServer serves the built-in demo MCP server over stdio until its
// client closes stdin or a signal stops it.
func runDemoServer(stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := demo.Serve(ctx, stdin, stdout); err != nil && ctx.Err() == nil {
		fmt.Fprintln(stderr, "elicitdesk demo-server:", err)
		return 1
	}
	return 0
}
