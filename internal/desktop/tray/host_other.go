//go:build !(linux || freebsd || openbsd || netbsd)

package tray

import "context"

// Host reports that macOS and Windows always have a tray.
func Host(context.Context) (bus, host bool) { return true, true }

// available finds nothing missing: macOS and Windows always have a tray.
func available(context.Context) error { return nil }
