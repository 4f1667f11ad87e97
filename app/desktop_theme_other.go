//go:build !(linux || freebsd || openbsd || netbsd)

package app

import (
	"context"

	"github.com/elicitdesk/elicitdesk/app/look"
)

// readDesktop leaves light and dark to Fyne, which reads them on macOS
// and Windows.
func readDesktop(context.Context) look.Desktop { return look.Desktop{Native: true} }
