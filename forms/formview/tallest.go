package formview

import "fyne.io/fyne/v2"

// tallest stacks its objects in one place and is as big as the biggest,
// shown or hidden: a hint and the error that replaces it share a slot
// that keeps its height, so nothing below moves under the pointer when an
// error shows or goes.
type tallest struct{}

func (tallest) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objects {
		s = s.Max(o.MinSize())
	}
	return s
}

func (tallest) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}
