//go:build linux || freebsd || openbsd || netbsd

package cli

import (
	"context"
	"log/slog"

	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
	"github.com/elicitdesk/elicitdesk/internal/desktop/sessionbus"
)

// coreNotifier connects the core to the desktop's notification server on
// a session bus connection of its own; nil when none answers.
// notifyInWindows: the core's own notifier shows them, or none can.
const notifyInWindows = false

func coreNotifier(ctx context.Context, log *slog.Logger, clicked func(id uint32)) (n core.Notifier, why string) {
	conn, err := sessionbus.Dial(ctx)
	if err != nil {
		log.Info("no DBus session bus: the core shows no notifications", "err", err)
		return nil, "None can show: Elicit Desk runs without a session bus, which notifications come through."
	}
	c, err := notify.New(ctx, conn, notify.Options{AppName: appName, Icon: appID, DesktopEntry: appID, OnClick: clicked})
	if err != nil {
		conn.Close()
		log.Info("the core shows no notifications", "err", err)
		return nil, "None can show: no notification server runs on this desktop."
	}
	return c, ""
}
