//go:build linux || freebsd || openbsd || netbsd

package tray

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
	host, err = hostOn(ctx, conn)
	return err == nil, host
}

// hostOn asks the bus conn whether a tray host shows items: a
// StatusNotifierWatcher with a host registered. An error says the bus
// did not answer.
func hostOn(ctx context.Context, conn *dbus.Conn) (bool, error) {
	var owned bool
	err := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, watcherName).Store(&owned)
	if err != nil || !owned {
		return false, err
	}
	var registered dbus.Variant
	err = conn.Object(watcherName, watcherPath).CallWithContext(ctx, "org.freedesktop.DBus.Properties.Get", dbus.FlagNoAutoStart,
		watcherName, "IsStatusNotifierHostRegistered").Store(&registered)
	if err != nil {
		return true, nil // a watcher that does not say has a host: it is there to show items
	}
	yes, _ := registered.Value().(bool)
	return yes, nil
}

// settle is how long WatchHost lets the desktop settle after a change it
// heard of before it asks again: a panel that restarts at once, its
// watcher gone and back, changes nothing, and the watcher's signals of
// one change come as one.
const settle = time.Second

// WatchHost tells, on the channel it returns, each time whether a tray
// host shows items changes from had (what Host said): when the desktop
// removes its tray host (the panel crashes or is turned off, swaybar
// exits) and when one comes back. It hears the StatusNotifierWatcher's
// bus name change owner, which a watcher that goes with its host (swaybar,
// waybar) does, and the watcher's StatusNotifierHostRegistered and
// Unregistered, which one that outlives its host (KDE's) sends; after
// either it asks the watcher as Host does, so that a signal read wrong
// or missed changes nothing. The channel closes when ctx ends or the
// session bus connection does; it is never closed before, and nothing is
// sent when nothing changed.
func WatchHost(ctx context.Context, had bool, log *slog.Logger) <-chan bool {
	return watchSettling(ctx, had, settle, log)
}

// watchSettling is WatchHost letting the desktop settle for settling.
func watchSettling(ctx context.Context, had bool, settling time.Duration, log *slog.Logger) <-chan bool {
	changes := make(chan bool)
	go func() {
		defer close(changes)
		if err := watchHost(ctx, had, settling, changes, log); err != nil && ctx.Err() == nil {
			log.Warn("whether a tray host shows the icon is no longer watched", "err", err)
		}
	}()
	return changes
}

// watchHost sends on changes each change of whether a tray host shows
// items, from had, until ctx ends or the bus connection does, letting
// the desktop settle for settling after each signal.
func watchHost(ctx context.Context, had bool, settling time.Duration, changes chan<- bool, log *slog.Logger) error {
	dialing, cancel := context.WithTimeout(ctx, ask)
	conn, err := dbus.SessionBusPrivateNoAutoStartup(dbus.WithContext(ctx)) // closes when ctx ends
	if err == nil {
		err = handshake(dialing, conn)
	}
	defer cancel()
	if err != nil {
		return fmt.Errorf("no session bus: %w", err)
	}
	defer conn.Close()
	signals := make(chan *dbus.Signal, 8)
	conn.Signal(signals) // closed when the connection ends
	for _, match := range [][]dbus.MatchOption{
		{dbus.WithMatchSender("org.freedesktop.DBus"), dbus.WithMatchMember("NameOwnerChanged"), dbus.WithMatchArg(0, watcherName)},
		{dbus.WithMatchInterface(watcherName), dbus.WithMatchObjectPath(watcherPath)},
	} {
		if err := conn.AddMatchSignalContext(dialing, match...); err != nil {
			return fmt.Errorf("the watcher's signals: %w", err)
		}
	}
	now := had
	look := func() error { // ask the bus, and send what changed
		asking, cancel := context.WithTimeout(ctx, ask)
		host, err := hostOn(asking, conn)
		cancel()
		if err != nil {
			log.Debug("the session bus did not say whether a tray host shows the icon", "err", err)
			return nil // the next signal asks again
		}
		if host == now {
			return nil
		}
		now = host
		select {
		case changes <- host:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	// A change between had and the matches above was not heard: ask.
	if err := look(); err != nil {
		return err
	}
	var settled <-chan time.Time // set while a change settles
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case s, ok := <-signals:
			if !ok {
				return errors.New("the session bus connection ended")
			}
			if hostSignal(s) && settled == nil {
				log.Debug("the tray host may have changed", "signal", s.Name)
				settled = time.After(settling)
			}
		case <-settled:
			settled = nil
			if err := look(); err != nil {
				return err
			}
		}
	}
}

// hostSignal reports whether s may say that the tray host changed: the
// watcher's name changed owner, or a host registered or went.
func hostSignal(s *dbus.Signal) bool {
	switch s.Name {
	case "org.freedesktop.DBus.NameOwnerChanged":
		name, _ := firstString(s.Body)
		return name == watcherName
	case watcherName + ".StatusNotifierHostRegistered", watcherName + ".StatusNotifierHostUnregistered":
		return true
	}
	return false
}

func firstString(body []any) (string, bool) {
	if len(body) == 0 {
		return "", false
	}
	s, ok := body[0].(string)
	return s, ok
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
	if err := handshake(ctx, conn); err != nil {
		return nil, err
	}
	return conn, nil
}

// handshake authenticates on conn and says hello, closing conn when
// either fails or ctx ends first (a bus that does not answer).
func handshake(ctx context.Context, conn *dbus.Conn) error {
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	err := conn.Auth(nil)
	if err == nil {
		err = conn.Hello()
	}
	if !stop() && err == nil {
		err = ctx.Err()
	}
	if err != nil {
		conn.Close()
	}
	return err
}
