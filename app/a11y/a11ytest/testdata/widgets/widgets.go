// Package widgets is what Widgets must find, and not find.
package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	applook "github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

type entry struct {
	widget.Entry
	keys int
}

// numeric is a widget through entry.
type numeric struct {
	entry
}

type scroll struct {
	*container.Scroll
}

// drawn has its own renderer without embedding a widget.
type drawn struct{ hidden bool }

func (d *drawn) CreateRenderer() fyne.WidgetRenderer { return nil }

// plain embeds no widget.
type plain struct {
	fyne.Size
	name string
}

// ringed is a widget through another package's of the module, imported
// under a name of its own.
type ringed struct {
	applook.Button
}

// quoted embeds another package's type that is no widget.
type quoted struct {
	untrusted.Text
}
