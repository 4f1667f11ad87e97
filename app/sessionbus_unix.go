//go:build linux || freebsd || openbsd || netbsd

package app

import "github.com/godbus/dbus/v5"

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
