package app

import (
	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

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
