package look

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// NewFlow lays objects out in a row at their minimum sizes, as an HBox
// does, and wraps them onto more rows where the width is too narrow for
// one, each row at the end of the line as a row of buttons sits. Its
// minimum width is its widest object's, so that a window it is in can be
// made as narrow (a tiling window manager's third of a screen): an HBox
// of a server's four buttons held the Servers window wider. Fyne's
// RowWrapLayout keeps the width it was last laid out at as its minimum,
// which holds a window as wide as it once was. The minimum height is that
// of the rows the last layout needed, which Fyne's canvas lays out again
// as it changes.
func NewFlow(objects ...fyne.CanvasObject) *fyne.Container {
	return container.New(&flow{rows: 1}, objects...)
}

type flow struct{ rows int }

// Layout places the visible objects in rows no wider than size, each row
// at the end of its line.
func (f *flow) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	gap := theme.Padding()
	f.rows = 0
	var y, h float32
	for row := visible(objects); len(row) > 0; {
		n, w := 1, row[0].MinSize().Width
		for n < len(row) && w+gap+row[n].MinSize().Width <= size.Width {
			w += gap + row[n].MinSize().Width
			n++
		}
		x := max(size.Width-w, 0)
		h = 0
		for _, o := range row[:n] {
			m := o.MinSize()
			o.Move(fyne.NewPos(x, y))
			o.Resize(m)
			x += m.Width + gap
			h = max(h, m.Height)
		}
		f.rows++
		y += h + gap
		row = row[n:]
	}
}

// MinSize is the widest object's width, and the height of the rows the
// last layout needed, one before any.
func (f *flow) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range visible(objects) {
		m = m.Max(o.MinSize())
	}
	rows := float32(max(f.rows, 1))
	return fyne.NewSize(m.Width, rows*m.Height+(rows-1)*theme.Padding())
}

// oneRow is the size of the visible objects in one row.
func (f *flow) oneRow(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for i, o := range visible(objects) {
		m := o.MinSize()
		if i > 0 {
			s.Width += theme.Padding()
		}
		s.Width += m.Width
		s.Height = max(s.Height, m.Height)
	}
	return s
}

// visible is the objects shown.
func visible(objects []fyne.CanvasObject) []fyne.CanvasObject {
	var shown []fyne.CanvasObject
	for _, o := range objects {
		if o.Visible() {
			shown = append(shown, o)
		}
	}
	return shown
}

// natural is the size o takes given the room: a Flow's in one row.
func natural(o fyne.CanvasObject) fyne.Size {
	if c, ok := o.(*fyne.Container); ok {
		if f, ok := c.Layout.(*flow); ok {
			return f.oneRow(c.Objects)
		}
	}
	return o.MinSize()
}
