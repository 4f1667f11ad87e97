package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
)

// notifyHere shows a notification through Fyne, where the core has no
// notification server of its own (macOS, Windows): it cannot be
// withdrawn, and a click on it only brings the windows forward.
func (d *Desk) notifyHere(n notify.Notice) {
	d.fyne.SendNotification(fyne.NewNotification(n.Summary, n.Body))
}

// showError shows a problem in a window of its own, since it may come from
// the tray with no window open.
func (d *Desk) showError(title, text string) {
	w := d.fyne.NewWindow(title + " — Elicit Desk")
	msg := widget.NewLabel(text)
	msg.Wrapping = fyne.TextWrapWord
	ok := look.NewButton("OK", nil, w.Close)
	ok.Importance = widget.HighImportance
	keys.Close(w, nil)
	// The icon beside the first line, OK at the right as in every dialog.
	w.SetContent(container.NewPadded(container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), ok),
		container.NewVBox(widget.NewIcon(theme.ErrorIcon())), nil, msg)))
	d.screen().Show(w, fyne.NewSize(440, 160)) // preferred
}
