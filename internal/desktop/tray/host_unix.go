//go:build linux || freebsd || openbsd || netbsd

package tray

import (
	"context"
	"fmt"
	"time"

	"github.com/godbus/dbus/v5"
)

// watcher is the StatusNotifierWatcher, with which items register and
// which tells whether a tray host shows them.
const (
	watcherName = "org.kde.StatusNotifierWatcher"
	watcherPath = "/StatusNotifierWatcher"
)

// ask bounds the questions to a session bus: one that does not answer must
// not hold up a start.
const ask = time.Second

// Host tells whether the desktop can show a tray icon: bus, whether a
// session bus answers (Start fails without one; the tray also panicked
// Fyne on quit without one, fyne#6403), and host, whether a tray host
// shows items on it: a StatusNotifierWatcher with a host registered. An
// item Start registered without a host shows when one starts.
func Host(ctx context.Context) (bus, host bool) {
	ctx, cancel := context.WithTimeout(ctx, ask)
	defer cancel()
	conn, err := dial(ctx)
	if err != nil {
		return false, false
	}
	defer conn.Close()
	var owned bool
	err = conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, watcherName).Store(&owned)
	if err != nil {
		return false, false
	}
	if !owned {
		return true, false
	}
	var registered dbus.Variant
	err = conn.Object(watcherName, watcherPath).CallWithContext(ctx, "org.freedesktop.DBus.Properties.Get", dbus.FlagNoAutoStart,
		watcherName, "IsStatusNotifierHostRegistered").Store(&registered)
	if err != nil {
		return true, true // a watcher that does not say has a host: it is there to show items
	}
	yes, _ := registered.Value().(bool)
	return true, yes
}

// available says why no tray can be shown: no session bus answers.
func available(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, ask)
	defer cancel()
	conn, err := dial(ctx)
	if err != nil {
		return fmt.Errorf("no tray: no session bus: %w", err)
	}
	return conn.Close()
}

// dial connects to the session bus the way systray will, through godbus's
// dbus.SessionBus, so that the answer holds for it; but it never starts a
// bus (dbus-launch's would outlive us and show nothing). The connection
// closes when ctx ends.
func dial(ctx context.Context) (*dbus.Conn, error) {
	conn, err := dbus.SessionBusPrivateNoAutoStartup(dbus.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	if err = conn.Auth(nil); err == nil {
		err = conn.Hello()
	}
	if err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}
