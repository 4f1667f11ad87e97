// Package assets holds the files the binary carries: icons and the demo form.
package assets

import (
	_ "embed"

	"fyne.io/fyne/v2"
)

//go:embed icon.png
var iconPNG []byte

// Icon returns the app icon (FyneApp.toml names the same file).
func Icon() fyne.Resource { return fyne.NewStaticResource("icon.png", iconPNG) }

// DemoForm is the requestedSchema shown when the app starts without servers:
// one field of every kind the spec defines.
//
//go:embed demo-form.json
var DemoForm []byte
