// Package assets holds the files the binary carries: icons and the demo form.
package assets

import (
	_ "embed"

	"fyne.io/fyne/v2"
)

var (
	//go:embed icon.png
	iconPNG []byte
	//go:embed tray.png
	trayPNG []byte
	//go:embed tray-waiting.png
	trayWaitingPNG []byte
)

// Icon returns the app icon (FyneApp.toml names the same file).
func Icon() fyne.Resource { return fyne.NewStaticResource("icon.png", iconPNG) }

// TrayIcon returns the tray icon: small, with a dot when requests wait,
// so the person sees at a glance that someone is asking.
func TrayIcon(waiting bool) fyne.Resource {
	if waiting {
		return fyne.NewStaticResource("tray-waiting.png", trayWaitingPNG)
	}
	return fyne.NewStaticResource("tray.png", trayPNG)
}

// DemoForm is the requestedSchema shown by `elicitdesk preview` without a
// file: one field of every kind the spec defines.
//
//go:embed demo-form.json
var DemoForm []byte
