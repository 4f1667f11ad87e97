//go:build linux || freebsd || openbsd || netbsd

package corecmd

import (
	"context"

	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
	"github.com/elicitdesk/elicitdesk/internal/desktop/sessionbus"
)

// notifyInWindows: the core's own notifier shows them, or none can.
const notifyInWindows = false

// coreNotifier connects the core to the desktop's notification server on
// a session bus connection of its own; nil when none answers, with why
// for Settings and err for the log. The caller logs err once it knows it
// is the one core: a second start says only that the first runs.
func coreNotifier(ctx context.Context, clicked func(id uint32)) (n core.Notifier, why string, err error) {
	conn, err := sessionbus.Dial(ctx)
	if err != nil {
		return nil, "None can show: Elicit Desk runs without a session bus, which notifications come through.", err // it says "no session bus"
	}
	c, err := notify.New(ctx, conn, notify.Options{AppName: AppName, Icon: AppID, DesktopEntry: AppID, OnClick: clicked})
	if err != nil {
		conn.Close()
		return nil, "None can show: the session bus refused to pass notifications' clicks.", err
	}
	// One that starts later shows the next notice (Core.NotificationsProblem).
	return c, "", c.Check(ctx)
}
