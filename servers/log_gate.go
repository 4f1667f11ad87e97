package servers

import (
	"context"
	"log/slog"

	"github.com/elicitdesk/elicitdesk/internal/base/gate"
)

// gatedLogger is l with its records passing through g: none is written
// once g is shut, and shutting it waits for those being written. A record
// a connection's goroutines wrote after its Close would reach a writer its
// owner has moved on from, such as the CLI's stderr after the command
// returned.
func gatedLogger(l *slog.Logger, g *gate.Gate) *slog.Logger {
	return slog.New(gatedHandler{l.Handler(), g})
}

type gatedHandler struct {
	slog.Handler
	gate *gate.Gate
}

func (h gatedHandler) Handle(ctx context.Context, r slog.Record) error {
	if !h.gate.Enter() {
		return nil
	}
	defer h.gate.Leave()
	return h.Handler.Handle(ctx, r)
}

func (h gatedHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return gatedHandler{h.Handler.WithAttrs(attrs), h.gate}
}

func (h gatedHandler) WithGroup(name string) slog.Handler {
	return gatedHandler{h.Handler.WithGroup(name), h.gate}
}
