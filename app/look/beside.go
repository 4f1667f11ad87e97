package look

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// BesideOrBelow lays out lead (a heading, a text) and trail (its
// buttons): trail at the end of lead's line while lead keeps the width
// want says beside it, else on a line of its own below lead, at its end.
// Squeezed beside their buttons in a narrow window (a tiling window
// manager's column), a server's name was cut to its first letter and a
// form's help wrapped a word a line, stretching the buttons with it.
func BesideOrBelow(want func() float32, lead, trail fyne.CanvasObject) *fyne.Container {
	return container.New(&besideOrBelow{want: want}, lead, trail)
}

type besideOrBelow struct {
	want  func() float32 // lead's width beside trail
	below bool           // how Layout placed trail last, which MinSize follows
}

// Layout places objects[0], the lead, and objects[1], the trail. A trail
// that wraps (NewFlow) goes below in one row while it fits there, else in
// more, at the line's end.
func (l *besideOrBelow) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	head, acts := objects[0], objects[1]
	a := natural(acts)
	gap := theme.Padding()
	l.below = l.want()+gap+a.Width > size.Width
	if l.below {
		h := head.MinSize().Height
		head.Move(fyne.NewPos(0, 0))
		head.Resize(fyne.NewSize(size.Width, h))
		w := min(a.Width, size.Width)
		acts.Move(fyne.NewPos(size.Width-w, h+gap))
		acts.Resize(fyne.NewSize(w, acts.MinSize().Height))
		return
	}
	head.Move(fyne.NewPos(0, 0))
	head.Resize(fyne.NewSize(size.Width-a.Width-gap, size.Height))
	acts.Move(fyne.NewPos(size.Width-a.Width, (size.Height-a.Height)/2))
	acts.Resize(a)
}

// MinSize is as wide as the trail below the lead needs, so that a window
// can be made that narrow: side by side, they take the window's room, and
// below, the width it leaves (the width side by side would hold the
// window as wide as it was, and a window manager can make it no
// narrower, so the trail never went below). Its height is the one the
// last Layout needs: Fyne lays the parent out again when it changes.
func (l *besideOrBelow) MinSize(objects []fyne.CanvasObject) fyne.Size {
	h, a := objects[0].MinSize(), objects[1].MinSize()
	if l.below {
		return fyne.NewSize(max(h.Width, a.Width), h.Height+theme.Padding()+a.Height)
	}
	return fyne.NewSize(max(h.Width, a.Width), max(h.Height, natural(objects[1]).Height))
}
