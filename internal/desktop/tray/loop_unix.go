//go:build linux || freebsd || openbsd || netbsd

package tray

import (
	"context"

	"fyne.io/systray"
)

// loop is systray on the session bus: it exports the StatusNotifierItem
// and its menu on godbus's shared session bus connection, registers with
// the StatusNotifierWatcher and again whenever a watcher starts. No
// thread of its own, no timer: it wakes for DBus messages only.
type loop struct {
	end func()
}

// start exports the item, with icon, and returns a closed channel and
// whether the icon is shown: systray takes calls from now on.
func (l *loop) start(_ context.Context, title string, icon []byte) (<-chan struct{}, bool, error) {
	// Before the export, so the item's Id is the title: tray hosts
	// remember an item's settings (shown, hidden) by its Id. The icon is
	// part of the export too: set later, systray's SetIcon writes its
	// pixels while a host may read them (-race says so).
	systray.SetTitle(title)
	systray.SetTooltip(title)
	systray.SetIcon(icon)
	var start func()
	start, l.end = systray.RunWithExternalLoop(nil, nil)
	start()
	ready := make(chan struct{})
	close(ready)
	return ready, true, nil
}

// stop closes systray's bus connection, which takes the item off the bus;
// the watcher sees its name go.
func (l *loop) stop() { l.end() }

// run has nothing to do: the bus connection's goroutines serve the item.
func (l *loop) run() {}

// setIcon shows png: the StatusNotifierItem carries its pixels.
func setIcon(png []byte) error {
	systray.SetIcon(png)
	return nil
}
