//go:build !(linux || freebsd || openbsd || netbsd)

package atspi

import (
	"context"
	"log/slog"

	"fyne.io/fyne/v2"
)

// Start does nothing here: AT-SPI is the free desktops' accessibility
// bus. On macOS and Windows Fyne itself reaches VoiceOver and Narrator.
func Start(context.Context, fyne.App, string, *slog.Logger) {}
