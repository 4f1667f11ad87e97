package formview

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The share of a row's width the labels' column takes: at most half, so a
// longer label or hint wraps and the control keeps the rest; at least a
// third, so an error in a hint's place has room for a line.
const (
	labelsAtMost  = 0.5
	labelsAtLeast = 1.0 / 3
)

// fieldRow lays out one field as a row of the form's two columns: its
// label over its hint on the left, centred against the first line of its
// control on the right. Every row shares one labelColumn, so the controls
// line up. A wide control goes under its label and hint instead.
type fieldRow struct {
	labels *labelColumn
	wide   bool
}

// labelColumn is the left column of a form's rows: as wide as its widest
// line of text, within its shares of the width.
type labelColumn struct {
	texts []*widget.Label
	// natural is the widest text's width at text size, measured once per
	// text size: a large form must not measure every text on each layout.
	natural, at float32
}

func (c *labelColumn) width(total float32) float32 {
	if size := theme.TextSize(); size != c.at {
		c.natural, c.at = 0, size
		for _, l := range c.texts {
			size := theme.TextSize()
			if l.SizeName != "" {
				size = theme.Size(l.SizeName)
			}
			for _, line := range strings.Split(l.Text, "\n") {
				w := fyne.MeasureText(line, size, l.TextStyle).Width
				c.natural = max(c.natural, w+2*theme.InnerPadding())
			}
		}
	}
	return min(max(c.natural, total*labelsAtLeast), total*labelsAtMost)
}

// line is the height of one line of input: an entry, a drop-down, a
// checkbox.
func line() float32 {
	return fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{}).Height + 2*theme.InnerPadding()
}

func (r fieldRow) MinSize(objects []fyne.CanvasObject) fyne.Size {
	left, right := objects[0].MinSize(), objects[1].MinSize()
	if r.wide {
		return fyne.NewSize(max(left.Width, right.Width), left.Height+theme.Padding()+right.Height)
	}
	return fyne.NewSize(left.Width+theme.Padding()+right.Width, max(left.Height, right.Height))
}

func (r fieldRow) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	left, right := objects[0], objects[1]
	if r.wide {
		left.Move(fyne.NewPos(0, 0))
		left.Resize(fyne.NewSize(size.Width, left.Size().Height)) // wraps the texts at the width
		left.Resize(fyne.NewSize(size.Width, left.MinSize().Height))
		right.Move(fyne.NewPos(0, left.Size().Height+theme.Padding()))
		right.Resize(fyne.NewSize(size.Width, right.MinSize().Height))
		return
	}
	lw := max(r.labels.width(size.Width), left.MinSize().Width)
	rw := size.Width - lw - theme.Padding()
	left.Resize(fyne.NewSize(lw, left.Size().Height)) // wraps the texts at the width
	right.Resize(fyne.NewSize(rw, right.Size().Height))
	rh := right.MinSize().Height
	left.Move(fyne.NewPos(0, 0))
	left.Resize(fyne.NewSize(lw, max(left.MinSize().Height, min(rh, line()))))
	right.Move(fyne.NewPos(lw+theme.Padding(), 0))
	right.Resize(fyne.NewSize(rw, rh))
}
