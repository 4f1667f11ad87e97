package cli

import (
	"context"
	"io"
	"os/signal"
	"syscall"

	"github.com/elicitdesk/elicitdesk/internal/base/term"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

// runDemoServer serves the built-in demo MCP server over stdio until its
// client closes stdin or a signal stops it.
func runDemoServer(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := term.To(stderr).FlagSet("demo-server")
	if code, done := parseFlags(fs, args, term.To(stdout), term.To(stderr)); done {
		return code
	}
	if fs.NArg() != 0 {
		return noArgs(fs, term.To(stderr))
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := demo.Serve(ctx, stdin, stdout); err != nil && ctx.Err() == nil {
		term.To(stderr).Linef("elicitdesk demo-server: %s", err) // it may quote what the client sent
		return 1
	}
	return 0
}
