package app

import "fyne.io/fyne/v2"

// maxWidth and maxHeight bound every request window. Fyne reports no
// screen or work-area size, so they fit the work area of common screens
// (1366×768 less a panel) at scale 1.
const (
	maxWidth  = 1200
	maxHeight = 680
)

// fit caps a wanted window size to the maximum.
func fit(want fyne.Size) fyne.Size {
	return fyne.NewSize(min(want.Width, maxWidth), min(want.Height, maxHeight))
}

// capped wraps a window's content so its minimum size never exceeds
// the maximum: Fyne grows a window to its content's minimum, and text a
// server sent must not make a window wider or taller than the screen.
func capped(content fyne.CanvasObject) fyne.CanvasObject {
	return &fyne.Container{Layout: capLayout{}, Objects: []fyne.CanvasObject{content}}
}

// capLayout gives its one object the whole space and reports the object's
// minimum size, capped.
type capLayout struct{}

func (capLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (capLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objs {
		m = m.Max(o.MinSize())
	}
	return fit(m)
}
