package servers

import (
	"context"
	"log/slog"
	"sync"
)

// logGate passes a connection's log records on until Close shuts it.
// mcp-go's goroutines (the Streamable HTTP GET listener, the stdio reader)
// can outlive Close and log as they end; a record they wrote then would
// reach a writer its owner has moved on from, such as the CLI's stderr
// after the command returned.
type logGate struct {
	mu      sync.Mutex
	shut    bool
	writing sync.WaitGroup // records being written
}

// logger is l with its records passing through the gate.
func (g *logGate) logger(l *slog.Logger) *slog.Logger {
	return slog.New(gatedHandler{l.Handler(), g})
}

// enter counts one more record being written, unless the gate is shut;
// the caller calls g.writing.Done when it is written.
func (g *logGate) enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shut {
		return false
	}
	g.writing.Add(1)
	return true
}

// close drops every later record and waits for those being written.
func (g *logGate) close() {
	g.mu.Lock()
	g.shut = true
	g.mu.Unlock()
	g.writing.Wait()
}

type gatedHandler struct {
	slog.Handler
	gate *logGate
}

func (h gatedHandler) Handle(ctx context.Context, r slog.Record) error {
	if !h.gate.enter() {
		return nil
	}
	defer h.gate.writing.Done()
	return h.Handler.Handle(ctx, r)
}

func (h gatedHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return gatedHandler{h.Handler.WithAttrs(attrs), h.gate}
}

func (h gatedHandler) WithGroup(name string) slog.Handler {
	return gatedHandler{h.Handler.WithGroup(name), h.gate}
}
