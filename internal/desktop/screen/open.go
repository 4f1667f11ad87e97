package screen

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
)

// Opening is the size and place a window opens at.
type Opening struct {
	Size fyne.Size // the content's, in Fyne units
	X, Y int       // the content's top-left corner, as Place gives it
}

// Open is where a window that would like its content to be preferred big
// opens: that big, but no bigger than the work area, and centred in it.
func (s Screen) Open(preferred fyne.Size) Opening {
	size := preferred.Min(s.Size())
	x, y := s.Place(size, 0)
	return Opening{Size: size, X: x, Y: y}
}

// Show opens w at s.Open(preferred) and shows it. Fyne chooses the
// window's scale as it shows it: when that is not the one s predicted, the
// window is sized and placed again.
func (s Screen) Show(w fyne.Window, preferred fyne.Size) {
	s.show(w, func(Screen) fyne.Size { return preferred })
}

// show is Show with the preferred size measured on the screen as Fyne
// scales it: again, when the scale was not the one predicted.
func (s Screen) show(w fyne.Window, preferred func(Screen) fyne.Size) {
	o := s.Open(preferred(s))
	s.Put(w, o.Size, 0)
	w.Show()
	if got := w.Canvas().Scale(); got != s.scale() {
		s.Scale = got
		o = s.Open(preferred(s))
		s.Put(w, o.Size, 0)
	}
}

// ShowFitted opens w as wide as width, or the work area, and as tall as
// its content needs at that width, within the work area. full is the
// content's height once laid out at the window's width, so that wrapped
// texts are measured; it does not count a padded window's padding. When
// Fyne's scale is not the predicted one, the height is measured again at
// the width the window then gets.
func (s Screen) ShowFitted(w fyne.Window, width float32, full func() float32) {
	var pad float32 // around a padded window's content
	if w.Padded() {
		pad = 2 * theme.Padding()
	}
	s.show(w, func(s Screen) fyne.Size {
		room := s.Size()
		wide := min(width, room.Width)
		w.Content().Resize(fyne.NewSize(wide-pad, room.Height-pad))
		return fyne.NewSize(wide, full()+pad)
	})
}

// Put gives w content of size and places it as Place does, or asks the
// window system to centre it where windows cannot be placed.
func (s Screen) Put(w fyne.Window, size fyne.Size, others int) {
	w.Resize(size)
	if p, ok := w.(desktop.Window); ok && s.Placeable {
		p.RequestPosition(s.Place(size, others))
	} else {
		w.CenterOnScreen()
	}
}
