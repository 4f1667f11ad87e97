//go:build !(linux || freebsd || openbsd || netbsd)

package cli

import (
	"context"
	"log/slog"

	"github.com/elicitdesk/elicitdesk/internal/core"
)

// coreNotifier: the core shows no notifications where there is no session
// bus; the windows show theirs through Fyne.
func coreNotifier(context.Context, *slog.Logger, func(uint32)) core.Notifier { return nil }
