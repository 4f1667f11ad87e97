package serversview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/modal"
)

// showModal shows a dialog over the window, as modal.Show does; Escape
// runs onEscape while it is on top. hide closes it.
func (w *Window) showModal(title string, content fyne.CanvasObject, size fyne.Size, onEscape func(), buttons ...*widget.Button) (hide func()) {
	c := w.win.Canvas()
	h := modal.Show(c, title, content, size, buttons...)
	top := c.Overlays().Top()
	w.escapes[top] = onEscape
	return func() {
		delete(w.escapes, top)
		h()
	}
}

// showMessage shows text in a dialog with one button that closes it.
func (w *Window) showMessage(title, text string) {
	l := newValueLabel()
	l.SetText(text)
	var hide func()
	ok := widget.NewButton("OK", func() { hide() })
	ok.Importance = widget.HighImportance
	hide = w.showModal(title, l, fyne.NewSize(460, 200), func() { hide() }, ok)
}

// confirm asks before doing something that cannot be undone: act runs
// when the person confirms with the button named verb; the button named
// keep, or Escape, does nothing.
func (w *Window) confirm(title, text, keep, verb string, act func()) {
	l := newValueLabel()
	l.SetText(text)
	var hide func()
	cancel := widget.NewButton(keep, func() { hide() })
	do := widget.NewButtonWithIcon(verb, theme.DeleteIcon(), func() { hide(); act() })
	do.Importance = widget.DangerImportance
	hide = w.showModal(title, l, fyne.NewSize(460, 200), func() { hide() }, cancel, do)
}
