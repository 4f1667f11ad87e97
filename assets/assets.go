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
	//go:embed tray-problem.png
	trayProblemPNG []byte
	//go:embed tray-waiting-problem.png
	trayWaitingProblemPNG []byte
)

// Icon returns the app icon (FyneApp.toml names the same file).
func Icon() fyne.Resource { return fyne.NewStaticResource("icon.png", iconPNG) }

// TrayIconPNG returns the tray icon, a PNG: small, with a dot when
// requests wait, so the person sees at a glance that someone is asking,
// and a warning mark when a server cannot connect; both can show at once.
func TrayIconPNG(waiting, problem bool) []byte {
	switch {
	case waiting && problem:
		return trayWaitingProblemPNG
	case problem:
		return trayProblemPNG
	case waiting:
		return trayWaitingPNG
	}
	return trayPNG
}

// DemoForm is the requestedSchema shown by `elicitdesk preview` without a
// file: one field of every kind the spec defines.
//
//go:embed demo-form.json
var DemoForm []byte
