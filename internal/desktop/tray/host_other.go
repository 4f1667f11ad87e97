//go:build !(linux || freebsd || openbsd || netbsd)

package tray

import (
	"context"
	"log/slog"
)

// Host reports that macOS and Windows always have a tray.
func Host(context.Context) (bus, host bool) { return true, true }

// available finds nothing missing: macOS and Windows always have a tray.
func available(context.Context) error { return nil }

// WatchHost sends nothing: macOS and Windows always have a tray. The
// channel closes when ctx ends.
func WatchHost(ctx context.Context, _ bool, _ *slog.Logger) <-chan bool {
	changes := make(chan bool)
	context.AfterFunc(ctx, func() { close(changes) })
	return changes
}
