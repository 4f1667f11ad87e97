//go:build !(linux || freebsd || openbsd || netbsd)

package app

import (
	"context"
	"os"

	"github.com/elicitdesk/elicitdesk/app/look"
)

// readDesktop leaves light and dark to Fyne, which reads them on macOS
// and Windows, unless $FYNE_THEME says.
func readDesktop(context.Context) look.Desktop {
	return look.Desktop{Native: true, FyneThemeEnv: os.Getenv("FYNE_THEME")}
}
