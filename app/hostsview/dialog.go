package hostsview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
)

// showDialog shows content over win with a heading and buttons on the
// right, no larger than win. Each button's own action decides when it
// hides; the returned func hides it. Built on widget.ModalPopUp, as the
// Servers window's dialogs are: fyne's dialog package needs a module the
// app does not otherwise use.
func showDialog(win fyne.Window, title string, content fyne.CanvasObject, size fyne.Size, buttons ...*widget.Button) (hide func()) {
	heading := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	heading.Wrapping = fyne.TextWrapWord
	bar := container.NewHBox(layout.NewSpacer())
	for _, b := range buttons {
		bar.Add(b)
	}
	body := container.NewBorder(heading, container.NewVBox(widget.NewSeparator(), bar), nil, nil, content)
	pop := widget.NewModalPopUp(container.NewPadded(body), win.Canvas())
	room := win.Canvas().Size()
	pop.Resize(fyne.NewSize(min(size.Width, room.Width-40), min(size.Height, room.Height-40)))
	pop.Show()
	return pop.Hide
}

// tell shows text over win with one button that closes it, then runs then.
func tell(win fyne.Window, title, text string, then func()) {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	var hide func()
	ok := widget.NewButton("OK", func() {
		hide()
		if then != nil {
			then()
		}
	})
	ok.Importance = widget.HighImportance
	hide = showDialog(win, title, container.NewVScroll(l), fyne.NewSize(520, 240), ok)
}
