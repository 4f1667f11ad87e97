//go:build !(linux || freebsd || openbsd || netbsd)

package sessionbus

import (
	"context"

	"github.com/godbus/dbus/v5"
)

// Start has no session bus to ask where desktops have none.
func Start(context.Context, string) error { return ErrNoBus }

// Own has no session bus to own a name on where desktops have none.
func Own(context.Context, string) (*dbus.Conn, error) { return nil, ErrNoBus }

// Guard has nothing to guard where the tray needs no DBus.
func Guard(context.Context) bool { return true }
