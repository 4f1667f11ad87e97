// Package screen says where a new window may go: the work area of the
// screen it appears on (the screen less its panels and docks) and the
// scale Fyne draws at there. Fyne 2.8 has no screen API; Find asks GLFW,
// which Fyne's desktop driver runs on, and everything else here is plain
// geometry, so windows are sized and placed by code that tests without a
// display.
package screen

import (
	"math"

	"fyne.io/fyne/v2"
)

// Area is a rectangle in the window system's coordinates: pixels on X11
// and Windows, points on macOS, logical pixels on Wayland.
type Area struct{ X, Y, Width, Height int }

// Screen is where a new window appears.
type Screen struct {
	Work Area
	// Scale is how many of Work's units one Fyne unit takes.
	Scale float32
	// Placeable is whether the window system honours a position a window
	// asks for (Wayland does not: the compositor places windows).
	Placeable bool
}

// Fallback is the screen assumed when the platform says nothing (the test
// driver, or GLFW without a monitor): a common 1366×768 screen less a
// panel, at scale 1, placed by the window manager.
func Fallback() Screen {
	return Screen{Work: Area{Width: 1366, Height: 728}, Scale: 1}
}

// The room left for the window manager's title bar and borders, in the
// work area's units: the frame is not known before the window is mapped,
// and a window whose title bar falls outside the work area cannot be moved
// back by the person.
const (
	frameTop    = 36
	frameSide   = 4
	frameBottom = 4
)

// step is how far each further open window is offset from the one before,
// so every title bar stays visible.
const step = 36

// Size is the largest window content, in Fyne units, that fits in the
// work area with its frame.
func (s Screen) Size() fyne.Size {
	scale := s.scale()
	return fyne.NewSize(
		float32(max(0, s.Work.Width-2*frameSide))/scale,
		float32(max(0, s.Work.Height-frameTop-frameBottom))/scale,
	)
}

// Place is where a window of content size (in Fyne units) goes, as the
// position of its content's top-left corner, when others windows of the
// same kind are already open: the first centred in the work area, each
// next one stepped down and right, starting again at the centre before
// one would leave the work area. The window stays inside the work area.
func (s Screen) Place(size fyne.Size, others int) (x, y int) {
	scale := s.scale()
	w := int(math.Ceil(float64(size.Width*scale))) + 2*frameSide
	h := int(math.Ceil(float64(size.Height*scale))) + frameTop + frameBottom
	left := s.Work.X + (s.Work.Width-w)/2
	top := s.Work.Y + (s.Work.Height-h)/2
	// How many steps fit before the window would cross the work area's
	// right or bottom edge.
	room := min(s.Work.X+s.Work.Width-(left+w), s.Work.Y+s.Work.Height-(top+h))
	if n := room/step + 1; n > 0 {
		left += others % n * step
		top += others % n * step
	}
	left = max(s.Work.X, left)
	top = max(s.Work.Y, top)
	return left + frameSide, top + frameTop
}

func (s Screen) scale() float32 {
	if s.Scale <= 0 {
		return 1
	}
	return s.Scale
}
