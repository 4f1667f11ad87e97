// Package modal shows dialogs over a window: a title, content and buttons
// on the right. It is built on widget.ModalPopUp because fyne's dialog
// package needs a module the app does not otherwise use.
package modal

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
)

// Margin keeps a dialog off its window's edges: a window holds a dialog
// of height h when it is h+Margin high.
const Margin = 40

// Show shows content over c under title, with buttons on the right: as
// wide as size, and as tall as the content needs at that width up to
// size's height, each within what c has room for. Content taller than
// that should hold a *container.Scroll, which then scrolls while the
// buttons, and what the content holds around the scroll, stay in view. The buttons' own actions decide when it hides;
// hide closes it.
func Show(c fyne.Canvas, title string, content fyne.CanvasObject, size fyne.Size, buttons ...*widget.Button) (hide func()) {
	body := dialog(title, content, buttons)
	if room := c.Size(); room.Width > Margin && room.Height > Margin {
		size.Width = min(size.Width, room.Width-Margin)
		size.Height = min(size.Height, room.Height-Margin)
	}
	size.Height = min(size.Height, fullHeight(body, content, size.Width))
	pop := widget.NewModalPopUp(body, c)
	pop.Resize(size)
	pop.Show()
	return pop.Hide
}

// Height is how tall Show's dialog is at width with all of its content in
// view, for a window to make room for it.
func Height(title string, content fyne.CanvasObject, width float32, buttons ...*widget.Button) float32 {
	return fullHeight(dialog(title, content, buttons), content, width)
}

// dialog lays out a dialog's parts.
func dialog(title string, content fyne.CanvasObject, buttons []*widget.Button) fyne.CanvasObject {
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
