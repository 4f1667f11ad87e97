//go:build !(linux || freebsd || openbsd || netbsd)

package corecmd

import (
	"context"

	"github.com/elicitdesk/elicitdesk/internal/core"
)

// notifyInWindows: where there is no session bus, the windows show the
// core's notifications through Fyne.
const notifyInWindows = true

// coreNotifier: the core has no notification server of its own here.
func coreNotifier(context.Context, func(uint32)) (core.Notifier, string, error) {
	return nil, "", nil
}
