package hostsview

import "fyne.io/fyne/v2"

// FixedWidth lays out one object at a set width, so that the columns of
// rows laid out one by one line up.
type FixedWidth float32

func (f FixedWidth) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(float32(f), objects[0].MinSize().Height)
}

func (f FixedWidth) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	objects[0].Move(fyne.NewPos(0, 0))
	objects[0].Resize(size)
}
