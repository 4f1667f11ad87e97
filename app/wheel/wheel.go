// Package wheel is a vertical scroll container whose mouse wheel moves a
// useful distance. Fyne 2.8.1's desktop driver turns a wheel notch into 25
// units (internal/driver/glfw/window.go processMouseScrolled, scrollSpeed
// in scroll_speed_default.go): a third of a form field, so reading a long
// form takes dozens of notches.
package wheel

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// notch is how many times Fyne's distance a wheel notch moves: about three
// lines of text.
const notch = 3

// Scroll is container.Scroll, vertical only, with a faster wheel.
type Scroll struct {
	container.Scroll
}

// NewVScroll scrolls content vertically.
func NewVScroll(content fyne.CanvasObject) *Scroll {
	s := &Scroll{}
	s.Content = content
	s.Direction = container.ScrollVerticalOnly
	s.ExtendBaseWidget(s)
	return s
}

// Scrolled implements fyne.Scrollable.
func (s *Scroll) Scrolled(ev *fyne.ScrollEvent) {
	faster := *ev
	faster.Scrolled.DY *= notch
	s.Scroll.Scrolled(&faster)
}
