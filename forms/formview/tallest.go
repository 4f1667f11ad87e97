package formview

import "fyne.io/fyne/v2"

// tallest stacks its objects in one place and is as big as the biggest,
// shown or hidden: the help beside the buttons and the summary that
// replaces it share a slot that keeps its height, so nothing moves under
// the pointer when Accept is refused.
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

// hintRoom gives a field's error its hint's room, over the hint: as tall
// as the hint, or a line when there is none. The error is cut to fit
// (Truncation), so nothing below moves when it shows or goes. tallest
// would count the error's own minimum, which Fyne takes at body text size
// for a cut label, not the caption size it shows at.
type hintRoom struct{}

func (hintRoom) MinSize(objects []fyne.CanvasObject) fyne.Size { return objects[0].MinSize() }

func (hintRoom) Layout(objects []fyne.CanvasObject, size fyne.Size) { tallest{}.Layout(objects, size) }
