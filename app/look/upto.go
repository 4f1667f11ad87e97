package look

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// ScrollUpTo shows content as tall as it is, up to tallest, and scrolled
// beyond: a short link takes its one line, not the three lines a long
// one may scroll in. Wrapped text has its height at its width once laid
// out, which a window's fitting does before it measures.
func ScrollUpTo(content fyne.CanvasObject, tallest float32) fyne.CanvasObject {
	return container.New(upTo{content, tallest}, container.NewVScroll(content))
}

type upTo struct {
	content fyne.CanvasObject
	tallest float32
}

func (u upTo) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	objects[0].Move(fyne.NewPos(0, 0))
	objects[0].Resize(size)
}

func (u upTo) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(objects[0].MinSize().Width, min(u.content.MinSize().Height, u.tallest))
}
