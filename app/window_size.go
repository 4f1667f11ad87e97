package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/internal/desktop/xwin"
)

// Preferred widths of request windows, in Fyne units.
const (
	formWidth = 760 // the fields beside their review
	linkWidth = 640 // a link and a few lines about it
)

// windowSize is the size a request window opens at on s: the preferred
// width, or the work area's when narrower; then as tall as its content
// needs at that width to show everything without scrolling, within the
// work area. full lays the content out at a size and measures that height.
func windowSize(s screen.Screen, width float32, full func(width, height float32) float32) fyne.Size {
	room := s.Size()
	w := min(width, room.Width)
	return fyne.NewSize(w, min(full(w, room.Height), room.Height))
}

// place is where a new request window goes: the screen, and how many
// request windows are open already.
type place struct {
	screen.Screen
	others int
}

// sized is a request window fitted to its content.
type sized struct {
	w      fyne.Window
	at     place
	width  float32                             // the preferred width
	full   func(width, height float32) float32 // the content's full height
	box    *fyne.Container                     // caps the content to the work area
	fitted bool
}

// newSized wraps w's content so that it can be fitted: Fyne grows a window
// to its content's minimum, and text a server sent must not make a window
// wider or taller than the work area.
func newSized(w fyne.Window, at place, width float32, full func(width, height float32) float32) *sized {
	z := &sized{w: w, at: at, width: width, full: full, box: &fyne.Container{Objects: []fyne.CanvasObject{w.Content()}}}
	w.SetContent(z.box)
	xwin.Dialog(w) // it asks the person: floated at its size by a tiling window manager
	return z
}

// show fits the window the first time and shows it: with the keyboard
// when the person asked for it, otherwise marked as wanting their
// attention. Once shown, Fyne has chosen its scale: when it is not the one
// the screen predicted, the window is fitted again.
func (z *sized) show(by opener) {
	if !z.fitted {
		z.fitted = true
		z.fit()
	}
	z.w.Show()
	if got := z.w.Canvas().Scale(); got != z.at.Scale {
		z.at.Scale = got
		z.fit()
	}
	if by == byPerson {
		z.w.RequestFocus()
	} else {
		xwin.Attention(z.w)
	}
}

// calm takes the mark of wanting attention off the window: its request
// no longer waits.
func (z *sized) calm() { xwin.Calm(z.w) }

// fit sizes the window and places it.
func (z *sized) fit() {
	z.at.Put(z.w, z.size(), z.at.others)
}

// grow lays the window's content out again and makes the shown window dh
// taller, or shorter when negative, within the work area, keeping its
// width and place. Fyne lays out nothing again for a child shown or
// hidden, and a window manager may keep the window's size (sway did):
// what was under a line that went moves up all the same.
func (z *sized) grow(dh float32) {
	z.w.Content().Refresh()
	if !z.fitted {
		return // its first fit measures the content as it is then
	}
	growWindow(z.w, dh, z.at.Size().Height)
}

// snug makes the shown window as short as its content now needs, where
// it is taller: a part that went for good leaves no gap.
func (z *sized) snug() {
	z.w.Content().Refresh()
	if !z.fitted {
		return
	}
	if gap := z.w.Canvas().Size().Height - z.need(); gap > 0 {
		growWindow(z.w, -gap, z.at.Size().Height)
	}
}

// growWindow makes w dh taller, or shorter when negative, and at most
// tallest, keeping its width.
func growWindow(w fyne.Window, dh, tallest float32) {
	s := w.Canvas().Size()
	w.Resize(fyne.NewSize(s.Width, min(s.Height+dh, tallest)))
}

// showLine shows or hides line, a line atop a window's content, and lays
// out again in, which holds it: Fyne does not for a child shown or hidden.
// When the line came or went, grow (if set) runs with the height it added,
// with the space after it (negative: took away), so that its window makes
// room and what is below keeps its own.
func showLine(line, in fyne.CanvasObject, show bool, grow func(dh float32)) {
	if show == line.Visible() {
		return
	}
	if show {
		line.Show()
		in.Refresh() // lays the line out at its width, where wrapped text has its height
	}
	dh := line.MinSize().Height + theme.Padding()
	if !show {
		line.Hide()
		in.Refresh()
		dh = -dh
	}
	if grow != nil {
		grow(dh)
	}
}

// need is the height the content needs now, at the window's width, to
// show everything without scrolling.
func (z *sized) need() float32 {
	pad := z.pad()
	s := z.w.Canvas().Size()
	return z.full(s.Width-pad, s.Height-pad) + pad
}

// pad is the space around the content of a padded window.
func (z *sized) pad() float32 {
	if z.w.Padded() {
		return 2 * theme.Padding()
	}
	return 0
}

// size is the window's size on its screen: as its content needs, within
// the work area, which also caps the content's minimum.
func (z *sized) size() fyne.Size {
	pad := z.pad()
	room := z.at.Size()
	z.box.Layout = capLayout{room.SubtractWidthHeight(pad, pad)}
	return windowSize(z.at.Screen, z.width, func(width, height float32) float32 {
		return z.full(width-pad, height-pad) + pad
	})
}

// capLayout gives its one object the whole space and reports the object's
// minimum size, capped to max.
type capLayout struct{ max fyne.Size }

func (capLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (l capLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objs {
		m = m.Max(o.MinSize())
	}
	return m.Min(l.max)
}
