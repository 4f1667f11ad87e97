//go:build linux || freebsd || openbsd || netbsd

package app

import (
	"context"
	"time"
)

// trayHost tells whether the desktop can show a tray icon. The tray of
// Fyne talks StatusNotifierItem over the DBus session bus and panics on
// quit without one (fyne#6403), so the bus must answer before the tray is
// set up; a tray host is the StatusNotifierWatcher on that bus.
func trayHost(ctx context.Context) (bus, host bool) {
	conn, err := privateBus()
	if err != nil {
		return false, false
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	var owned bool
	err = conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, "org.kde.StatusNotifierWatcher").Store(&owned)
	if err != nil {
		return false, false
	}
	return true, owned
}
