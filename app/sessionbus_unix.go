//go:build linux || freebsd || openbsd || netbsd

package app

import (
	"context"
	"os"

	"github.com/godbus/dbus/v5"

	"github.com/elicitdesk/elicitdesk/internal/desktop/sessionbus"
)

// busEnv is where godbus, and so Fyne and its tray, find the session bus.
const busEnv = "DBUS_SESSION_BUS_ADDRESS"

// noBus is an address no transport accepts: godbus fails to dial it at
// once instead of running dbus-launch, whose bus would outlive the app.
const noBus = "disabled:"

// GuardSessionBus makes sure nothing in the process autolaunches a session
// bus. Run it before Fyne starts: Fyne's theme watcher and notifications
// dial the bus with autolaunch. It reports whether a bus answers; when one
// does, its address is set for the whole process, the one a bridge finds
// (sessionbus.Address); when none does, the address is set to one that
// cannot be dialled, so the tray and notifications stay off.
func GuardSessionBus(ctx context.Context) bool {
	addr, err := sessionbus.Address()
	if err == nil {
		var conn *dbus.Conn
		if conn, err = sessionbus.Dial(ctx); err == nil {
			conn.Close()
		}
	}
	if err != nil {
		os.Setenv(busEnv, noBus)
		return false
	}
	os.Setenv(busEnv, addr)
	return true
}

// privateBus is a session bus connection of the app's own, for a client
// that closes it when done. It never starts a bus: dbus-launch would
// spawn a private one nobody watches.
func privateBus() (*dbus.Conn, error) {
	conn, err := dbus.SessionBusPrivateNoAutoStartup()
	if err != nil {
		return nil, err
	}
	if err := conn.Auth(nil); err != nil {
		conn.Close()
		return nil, err
	}
	if err := conn.Hello(); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}
