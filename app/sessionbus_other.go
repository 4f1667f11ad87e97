//go:build !(linux || freebsd || openbsd || netbsd)

package app

import "context"

// GuardSessionBus has nothing to guard where the tray needs no DBus.
func GuardSessionBus(context.Context) bool { return true }
