//go:build !(linux || freebsd || openbsd || netbsd)

package app

import "context"

// trayHost reports that macOS and Windows always have a tray.
func trayHost(context.Context) (bus, host bool) { return true, true }
