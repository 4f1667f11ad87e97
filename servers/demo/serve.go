package demo

import (
	"context"
	"io"
	"log/slog"

	"github.com/mark3labs/mcp-go/server"
)

// Serve runs the demo server (see NewServer) over stdin/stdout, one JSON-RPC
// message per line, until ctx is done or stdin closes. It returns nil when
// stdin closes and ctx's error when ctx ends first.
//
// mcp-go v1.2.1 keeps the stdio session in a package variable, so only one
// Serve may run at a time in a process.
func Serve(ctx context.Context, stdin io.Reader, stdout io.Writer) error {
	out := newWire(stdout)
	stdio := server.NewStdioServer(NewServer())
	stdio.SetErrorLogger(slog.NewLogLogger(slog.Default().Handler(), slog.LevelError))
	// Tools find the wire through their context: the stdio server derives
	// every request's context from the one this returns.
	stdio.SetContextFunc(func(ctx context.Context) context.Context { return withWire(ctx, out) })
	return stdio.Listen(ctx, stdin, out)
}
