package formview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// snug stacks text widgets line under line, without the blank each one's
// own inner padding adds above and below it, and centres them in the
// height it is given: a field's label over its hint then read as one
// block beside the field's control, as tall as one line of input.
type snug struct{}

// trim is what snug takes off each widget's height.
func trim() float32 { return 2 * theme.InnerPadding() }

func (snug) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objects {
		if o.Visible() {
			m := o.MinSize()
			s.Width = max(s.Width, m.Width)
			s.Height += max(0, m.Height-trim())
		}
	}
	return s
}

func (l snug) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Resize(fyne.NewSize(size.Width, o.Size().Height)) // wraps text at the width
	}
	y := (size.Height-l.MinSize(objects).Height)/2 - theme.InnerPadding()
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += max(0, h-trim())
	}
}
