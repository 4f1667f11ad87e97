//go:build linux || freebsd || openbsd || netbsd

package app

import (
	"context"
	"os"
	"time"

	"github.com/godbus/dbus/v5"
)

// busEnv is where godbus, and so Fyne and its tray, find the session bus.
const busEnv = "DBUS_SESSION_BUS_ADDRESS"

// noBus is an address no transport accepts: godbus fails to dial it at
// once instead of running dbus-launch, whose bus would outlive the app.
const noBus = "disabled:"

// GuardSessionBus makes sure nothing in the process autolaunches a session
// bus. Run it before Fyne starts: Fyne's theme watcher and notifications
// dial the bus with autolaunch. It reports whether a bus answers; when
// none does, the address is set to one that cannot be dialled, so the tray
// and notifications stay off.
func GuardSessionBus(ctx context.Context) bool {
	if busAnswers(ctx) {
		return true
	}
	os.Setenv(busEnv, noBus)
	return false
}

// busAnswers tells whether a session bus is there without starting one.
func busAnswers(ctx context.Context) bool {
	// NoAutoStartup: an empty address finds $XDG_RUNTIME_DIR/bus or fails.
	conn, err := dbus.SessionBusPrivateNoAutoStartup()
	if err != nil {
		return false
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	ok := make(chan bool, 1)
	go func() { ok <- conn.Auth(nil) == nil && conn.Hello() == nil }()
	select {
	case answered := <-ok:
		return answered
	case <-ctx.Done():
		conn.Close() // ends the handshake; the goroutine returns
		return false
	}
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
