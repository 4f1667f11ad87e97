package serversview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/modal"
)

// showMessage shows text in a modal with one button that closes it.
func showMessage(c fyne.Canvas, title, text string) {
	l := newValueLabel()
	l.SetText(text)
	var hide func()
	ok := widget.NewButton("OK", func() { hide() })
	ok.Importance = widget.HighImportance
	hide = modal.Show(c, title, l, fyne.NewSize(460, 200), ok)
}

// confirm asks before doing something that cannot be undone; act runs
// when the person confirms with the button named verb.
func confirm(c fyne.Canvas, title, text, verb string, act func()) {
	l := newValueLabel()
	l.SetText(text)
	var hide func()
	cancel := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() { hide() })
	do := widget.NewButtonWithIcon(verb, theme.DeleteIcon(), func() { hide(); act() })
	do.Importance = widget.DangerImportance
	hide = modal.Show(c, title, l, fyne.NewSize(460, 200), cancel, do)
}
