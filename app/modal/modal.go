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

// margin keeps a dialog off its window's edges.
const margin = 40

// Show shows content over c under title, with buttons on the right, at
// size or as much of it as c has room for. The buttons' own actions
// decide when it hides; hide closes it.
func Show(c fyne.Canvas, title string, content fyne.CanvasObject, size fyne.Size, buttons ...*widget.Button) (hide func()) {
	heading := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	heading.Wrapping = fyne.TextWrapWord
	bar := container.NewHBox(layout.NewSpacer())
	for _, b := range buttons {
		bar.Add(b)
	}
	body := container.NewBorder(heading, container.NewVBox(widget.NewSeparator(), bar), nil, nil, content)
	pop := widget.NewModalPopUp(container.NewPadded(body), c)
	if room := c.Size(); room.Width > margin && room.Height > margin {
		size = fyne.NewSize(min(size.Width, room.Width-margin), min(size.Height, room.Height-margin))
	}
	pop.Resize(size)
	pop.Show()
	return pop.Hide
}
