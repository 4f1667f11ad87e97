//go:build !(linux || freebsd || openbsd || netbsd)

package app

import (
	"net/url"

	"fyne.io/fyne/v2"
)

// browserOpener opens links through Fyne, which hears of failure on
// macOS and Windows.
func browserOpener(a fyne.App) func(*url.URL) error { return a.OpenURL }
