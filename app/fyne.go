package app

import (
	"context"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/theme"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/assets"
)

// NewFyne starts Fyne for the app or a preview, with the icon and theme.
// Its metadata is set here, not left to FyneApp.toml: Fyne reads that file
// beside the executable only in a development build, so an installed
// elicitdesk would otherwise run as not migrated to fyne.Do, logging
// thread warnings and running fyne.DoAndWait's work off the main thread.
func NewFyne(id, name, version string) fyne.App {
	fyneapp.SetMetadata(fyne.AppMetadata{
		ID:         id,
		Name:       name,
		Version:    version,
		Migrations: map[string]bool{"fyneDo": true},
	})
	a := fyneapp.NewWithID(id)
	a.SetIcon(assets.Icon())
	a.Settings().SetTheme(look.New())
	return a
}

// ApplyLook draws a with the look the app's windows have: light or dark
// as the person chose in Settings, or as the desktop is. A preview looks
// as the request windows will.
func ApplyLook(ctx context.Context, a fyne.App) {
	a.Settings().SetTheme(look.For(loadSettings(a.Preferences()).Theme, readDesktop(ctx)))
}

// WarmFonts has Fyne parse the fonts the windows write in (regular, bold,
// monospace) and find the system's fallback for the person's language.
// The first text measured pays for it, about 70 ms on the UI goroutine
// before a first window can show; run off it, while the process connects
// and GLFW starts, or while a process started ahead of need waits, it
// costs the window nothing.
func WarmFonts() {
	for _, s := range []fyne.TextStyle{{}, {Bold: true}, {Monospace: true}} {
		fyne.MeasureText("Elicit Desk", theme.TextSize(), s)
	}
}
