//go:build linux || freebsd || openbsd || netbsd

package app

import (
	"context"
	"os"
	"path/filepath"

	"github.com/elicitdesk/elicitdesk/assets"
	"github.com/elicitdesk/elicitdesk/internal/base/atomicfile"
	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
)

// newNotifier connects to the desktop's notification server on a session
// bus connection of its own, which Close ends; nil when none answers.
func (d *Desk) newNotifier() notifier {
	conn, err := privateBus()
	if err != nil {
		d.log.Info("no DBus session bus: running without notifications", "err", err)
		return nil
	}
	ctx, cancel := context.WithTimeout(d.ctx, busTimeout)
	defer cancel()
	c, err := notify.New(ctx, conn, notify.Options{
		AppName:      appName,
		Icon:         d.iconURI(),
		DesktopEntry: d.fyne.UniqueID(),
		OnClick:      func(id uint32) { d.do(func() { d.clicked(id) }) },
		OnClosed:     d.notices.forget,
	})
	if err != nil {
		conn.Close()
		d.log.Info("running without notifications", "err", err)
		return nil
	}
	return c
}

// iconURI is the app's icon as a file the notification server can read,
// kept in the app's storage; the icon's name when it cannot be written.
func (d *Desk) iconURI() string {
	path := filepath.Join(d.fyne.Storage().RootURI().Path(), "notification-icon.png")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err == nil {
		if err := atomicfile.Write(path, assets.Icon().Content(), 0o600); err == nil {
			return "file://" + path
		}
	}
	return d.fyne.UniqueID()
}
