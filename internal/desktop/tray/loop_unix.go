//go:build linux || freebsd || openbsd || netbsd

package tray

import (
	"context"
	"fmt"

	"fyne.io/systray"
	"github.com/godbus/dbus/v5"
)

// loop is systray on the session bus: it exports the StatusNotifierItem
// and its menu on godbus's shared session bus connection, registers with
// the StatusNotifierWatcher and again whenever a watcher starts. No
// thread of its own, no timer: it wakes for DBus messages only.
type loop struct {
	conn *dbus.Conn // godbus's shared connection, the one systray exports on
	end  func()
}

// start exports the item, with icon, and returns a closed channel and
// whether the icon is shown: systray takes calls from now on. A host
// that cannot show menus calls ContextMenu on the item, which clicked
// answers.
func (l *loop) start(_ context.Context, title string, icon []byte, clicked func()) (<-chan struct{}, bool, error) {
	// Before the export, so the item's Id is the title: tray hosts
	// remember an item's settings (shown, hidden) by its Id. The icon is
	// part of the export too: set later, systray's SetIcon writes its
	// pixels while a host may read them (-race says so).
	systray.SetTitle(title)
	systray.SetTooltip(title)
	systray.SetIcon(icon)
	// The connection systray's start takes next, so that lost can watch
	// it: systray itself never says that it ended.
	conn, err := dbus.SessionBus()
	if err != nil {
		return nil, false, fmt.Errorf("no tray: %w", err)
	}
	l.conn = conn
	var start func()
	start, l.end = systray.RunWithExternalLoop(nil, nil)
	start()
	// After the export, which tells hosts that the item is a menu
	// (ItemIsMenu) only while no tap function is set: hosts that show
	// menus keep opening it on a click, and one that cannot, swaybar,
	// calls ContextMenu, which systray answers with this function.
	systray.SetOnSecondaryTapped(clicked)
	ready := make(chan struct{})
	close(ready)
	return ready, true, nil
}

// lost is closed once the bus connection the item is on has ended: closed
// in this process, or dropped by a bus that went away. Nothing shows the
// item from then on.
func (l *loop) lost() <-chan struct{} { return l.conn.Context().Done() }

// stop closes systray's bus connection, which takes the item off the bus;
// the watcher sees its name go.
func (l *loop) stop() { l.end() }

// run has nothing to do: the bus connection's goroutines serve the item.
func (l *loop) run() {}

// setIcon shows png: the StatusNotifierItem carries its pixels. systray
// panics when it cannot tell the bus (prop.SetMust), as it does once the
// connection has ended, which may happen between lost's check and this
// call; that panic is returned here as the error it carries.
func setIcon(png []byte) (err error) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		e, ok := p.(error)
		if !ok {
			panic(p) // not the bus's error: a bug, with its stack
		}
		err = fmt.Errorf("systray: %w", e)
	}()
	systray.SetIcon(png)
	return nil
}
