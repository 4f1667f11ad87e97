// Package modal shows dialogs over a window: a title, content and buttons
// on the right, with the same look and keys (Escape, Return) for every
// dialog of the app's. It is built on widget.ModalPopUp: fyne's dialog
// package lays its buttons out otherwise and takes neither key.
package modal

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/look"
)

// Margin keeps a dialog off its window's edges: a window holds a dialog
// of height h when it is h+Margin high.
const Margin = 40

// Show shows content over c under title, with buttons on the right: as
// wide as size, and as tall as the content needs at that width up to
// size's height, each within what c has room for. Content taller than
// that should hold a *container.Scroll, which then scrolls while the
// buttons, and what the content holds around the scroll, stay in view. The buttons' own actions decide when it hides;
// hide closes it. It opens with the keyboard on the first button, the one
// that changes nothing (Cancel, Close, OK), so that a screen reader says
// where the person is; while it shows, Escape taps that button, Return
// presses the focused button, and with nothing focused a lone one (OK):
// where there is a choice, Return makes none for the person.
func Show(c fyne.Canvas, title string, content fyne.CanvasObject, size fyne.Size, buttons ...*look.Button) (hide func()) {
	return ShowEscape(c, title, content, size, nil, buttons...)
}

// ShowEscape is Show with Escape running escape rather than tapping the
// first button (nil: the first button).
func ShowEscape(c fyne.Canvas, title string, content fyne.CanvasObject, size fyne.Size, escape func(), buttons ...*look.Button) (hide func()) {
	body := dialog(title, content, buttons)
	if room := c.Size(); room.Width > Margin && room.Height > Margin {
		size.Width = min(size.Width, room.Width-Margin)
		size.Height = min(size.Height, room.Height-Margin)
	}
	size.Height = min(size.Height, fullHeight(body, content, size.Width))
	pop := widget.NewModalPopUp(body, c)
	pop.Resize(size)
	pop.Show()
	if len(buttons) > 0 { // the one that changes nothing: a screen reader says where the keyboard is
		c.Focus(buttons[0])
	}
	// With nothing focused Fyne gives a key to the canvas, whose handler
	// is the window's: the dialog's keys go first while it is on top. The
	// handler stays in place after it closes, passing every key on, so
	// that a handler the window added meanwhile (F1) is kept whatever
	// order dialogs close in; hide lets go of the dialog itself.
	k := &dialogKeys{top: c.Overlays().Top(), escape: escape}
	if k.escape == nil && len(buttons) > 0 {
		k.escape = buttons[0].Press
	}
	if len(buttons) == 1 {
		k.enter = buttons[0]
	}
	before := c.OnTypedKey()
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if !k.typed(c, ev) && before != nil {
			before(ev)
		}
	})
	return func() {
		pop.Hide()
		*k = dialogKeys{}
	}
}

// Tell shows text over c with one button, OK, that closes it and then runs
// then (nil: nothing).
func Tell(c fyne.Canvas, title, text string, then func()) {
	l := widget.NewLabel(text) // not selectable: a selection would take Escape
	l.Wrapping = fyne.TextWrapWord
	var hide func()
	ok := look.NewButton("OK", nil, func() {
		hide()
		if then != nil {
			then()
		}
	})
	ok.Importance = widget.HighImportance
	hide = Show(c, title, container.NewVScroll(l), fyne.NewSize(520, 240), ok)
}

// Confirm asks over c before something that cannot be undone: act runs
// when the person confirms with the button named verb; the button named
// keep, or Escape, does nothing.
func Confirm(c fyne.Canvas, title, text, keep, verb string, act func()) {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	var hide func()
	cancel := look.NewButton(keep, nil, func() { hide() })
	do := look.NewButton(verb, theme.DeleteIcon(), func() { hide(); act() })
	do.Importance = widget.DangerImportance
	hide = Show(c, title, l, fyne.NewSize(460, 200), cancel, do)
}

// dialogKeys is what Escape and Return do in a dialog; zero once it closed.
type dialogKeys struct {
	top    fyne.CanvasObject // the canvas's top overlay while the dialog shows
	escape func()            // nil: nothing
	enter  *look.Button      // nil: nothing
}

// typed does what ev does in the dialog, if it is the one on top of c (a
// dialog hidden, or taken off with one under it, is not), and reports
// whether it took ev.
func (k *dialogKeys) typed(c fyne.Canvas, ev *fyne.KeyEvent) bool {
	if k.top == nil || c.Overlays().Top() != k.top {
		return false
	}
	switch {
	case ev.Name == fyne.KeyEscape && k.escape != nil:
		k.escape()
	case (ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter) && k.enter != nil:
		k.enter.Press()
	default:
		return false
	}
	return true
}

// Height is how tall Show's dialog is at width with all of its content in
// view, for a window to make room for it.
func Height(title string, content fyne.CanvasObject, width float32, buttons ...*look.Button) float32 {
	return fullHeight(dialog(title, content, buttons), content, width)
}

// dialog lays out a dialog's parts.
func dialog(title string, content fyne.CanvasObject, buttons []*look.Button) fyne.CanvasObject {
	heading := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	heading.Wrapping = fyne.TextWrapWord
	bar := container.NewHBox(layout.NewSpacer())
	for _, b := range buttons {
		bar.Add(b)
	}
	body := container.NewBorder(heading, container.NewVBox(widget.NewSeparator(), bar), nil, nil, content)
	return container.NewPadded(body)
}

// fullHeight is how tall body is at width with all of content in view:
// wrapped texts are measured at that width, and each scroll content holds
// counts what it hides.
func fullHeight(body, content fyne.CanvasObject, width float32) float32 {
	// Twice: a wrapped text's height follows the width it was laid out at.
	body.Resize(fyne.NewSize(width, 10000))
	body.Resize(fyne.NewSize(width, 10001))
	return body.MinSize().Height + hidden(content)
}

// hidden is how much taller o is with its scrolls showing all they hold:
// the content's own, or those its containers hold, as a Border around a
// scroll does. Scrolls count one above the other, as a dialog stacks them.
func hidden(o fyne.CanvasObject) float32 {
	switch x := o.(type) {
	case *container.Scroll:
		if x.Content == nil || !x.Visible() {
			return 0
		}
		return max(0, x.Content.MinSize().Height-x.MinSize().Height)
	case *fyne.Container:
		var h float32
		for _, c := range x.Objects {
			if c.Visible() {
				h += hidden(c)
			}
		}
		return h
	}
	return 0
}
