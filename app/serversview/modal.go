package serversview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// modal is a dialog over a window: a title, content and buttons on the
// right. It is built on widget.ModalPopUp because fyne's dialog package
// needs a module the app does not otherwise use.
type modal struct {
	pop *widget.PopUp
}

// showModal shows a modal of the given size over c; the buttons' own
// actions decide when it hides.
func showModal(c fyne.Canvas, title string, content fyne.CanvasObject, size fyne.Size, buttons ...*widget.Button) *modal {
	heading := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	bar := container.NewHBox(layout.NewSpacer())
	for _, b := range buttons {
		bar.Add(b)
	}
	body := container.NewBorder(heading, container.NewVBox(widget.NewSeparator(), bar), nil, nil, content)
	m := &modal{pop: widget.NewModalPopUp(container.NewPadded(body), c)}
	m.pop.Resize(size)
	m.pop.Show()
	return m
}

// hide closes the modal.
func (m *modal) hide() { m.pop.Hide() }

// showMessage shows text in a modal with one button that closes it.
func showMessage(c fyne.Canvas, title, text string) *modal {
	l := newValueLabel()
	l.SetText(text)
	var m *modal
	ok := widget.NewButton("OK", func() { m.hide() })
	ok.Importance = widget.HighImportance
	m = showModal(c, title, l, fyne.NewSize(460, 200), ok)
	return m
}

// confirm asks before doing something that cannot be undone; act runs
// when the person confirms with the button named verb.
func confirm(c fyne.Canvas, title, text, verb string, act func()) *modal {
	l := newValueLabel()
	l.SetText(text)
	var m *modal
	cancel := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() { m.hide() })
	do := widget.NewButtonWithIcon(verb, theme.DeleteIcon(), func() { m.hide(); act() })
	do.Importance = widget.DangerImportance
	m = showModal(c, title, l, fyne.NewSize(460, 200), cancel, do)
	return m
}
