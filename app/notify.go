package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/internal/untrusted"
)

// notify tells the person a request arrived while they look elsewhere.
// It needs the session bus on Linux, like the tray.
func (d *Desk) notify(r *request) {
	if d.focused || d.tray == nil || d.ctx.Err() != nil {
		return
	}
	d.fyne.SendNotification(notification(r))
}

// notification is what the desktop shows of r: who asks and the first
// words of the message, hidden characters made visible.
func notification(r *request) *fyne.Notification {
	return fyne.NewNotification(untrusted.Text(r.Server.Name).Line()+" asks", r.Message.Headline(120))
}

// showError shows a problem in a window of its own, since it may come from
// the tray with no window open.
func (d *Desk) showError(title, text string) {
	w := d.fyne.NewWindow(title + " — Elicit Desk")
	msg := widget.NewLabel(text)
	msg.Wrapping = fyne.TextWrapWord
	ok := widget.NewButton("OK", w.Close)
	ok.Importance = widget.HighImportance
	w.SetContent(container.NewPadded(container.NewBorder(nil, container.NewHBox(ok), widget.NewIcon(theme.ErrorIcon()), nil, msg)))
	w.Resize(fyne.NewSize(440, 160))
	w.Show()
}
