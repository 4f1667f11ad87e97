package historyview

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// headings name the list's columns, in order.
func headings() row {
	return row{when: "Received", server: "Server", outcome: "Outcome", headline: "Message"}
}

// maxServerWidth bounds the server column: a long name is cut, not the
// message.
const maxServerWidth = 200

// columns are the widths of the list's first three columns; the message
// takes the rest of the row.
type columns [3]float32

// columnWidths sizes the time, server and outcome columns to their widest
// text among the headings and rows, as measure finds it.
func columnWidths(rows []row, measure func(string) float32) columns {
	var c columns
	for _, r := range append([]row{headings()}, rows...) {
		for i, text := range []string{r.when, r.server, r.outcome} {
			c[i] = max(c[i], measure(text))
		}
	}
	c[1] = min(c[1], maxServerWidth)
	return c
}

// labelWidths returns how wide a label showing a text is, in bold: the
// headings are, and the rest may be a little narrower. A label's padding
// is measured once, on a label.
func labelWidths() func(string) float32 {
	bold := fyne.TextStyle{Bold: true}
	measure := func(text string) float32 { return fyne.MeasureText(text, theme.TextSize(), bold).Width }
	pad := widget.NewLabelWithStyle("M", fyne.TextAlignLeading, bold).MinSize().Width - measure("M")
	return func(text string) float32 { return ceil(measure(text) + pad) }
}

// ceil rounds a width up to a whole unit, so a text measured to fit does.
func ceil(x float32) float32 { return float32(math.Ceil(float64(x))) }

// rowLayout lays out a row's four labels: the first three at the widths
// of cols, which the window changes as the list does, and the message
// across what is left.
type rowLayout struct{ cols *columns }

// Layout implements fyne.Layout.
func (l rowLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	for i, o := range objects {
		w := size.Width - x // the message
		if i < len(l.cols) {
			w = l.cols[i]
		}
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(max(w, 0), size.Height))
		x += w
	}
}

// MinSize implements fyne.Layout.
func (l rowLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for i, o := range objects {
		m := o.MinSize()
		s.Height = max(s.Height, m.Height)
		if i < len(l.cols) {
			s.Width += l.cols[i]
		} else {
			s.Width += m.Width
		}
	}
	return s
}

// newRow is a row of four labels laid out in cols; bold for the headings.
func newRow(cols *columns, bold bool) *fyne.Container {
	labels := make([]fyne.CanvasObject, 4)
	for i := range labels {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		l.TextStyle.Bold = bold
		labels[i] = l
	}
	return container.New(rowLayout{cols}, labels...)
}

// setRow shows r in a row made by newRow.
func setRow(c *fyne.Container, r row) {
	for i, text := range []string{r.when, r.server, r.outcome, r.headline} {
		c.Objects[i].(*widget.Label).SetText(text)
	}
	c.Refresh() // the columns may have changed width
}

// The window's preferred size, in Fyne units, and the share of the
// height under the search that the list takes above the detail at most:
// at this size it shows at least minRows rows (14 with Xvfb's fonts at
// scale 1). A short list takes room for its rows only, and at least
// fewRows, where the empty state fits.
const (
	defaultWidth, defaultHeight = 1100, 700
	listShare                   = 0.68
	minRows                     = 12
	fewRows                     = 4
)

// listOffset is the share of a split total high that a list of rows, each
// pitch high under a line of headings, takes above the detail.
func listOffset(rows int, pitch, total float32) float64 {
	if total <= 0 {
		return listShare // not laid out yet
	}
	need := float32(max(rows, fewRows)+1) * pitch
	return min(listShare, float64(need/total))
}

// compact is the app's theme with the list's rows closer together, so
// the list shows more of them: a row is one line of text.
type compact struct{}

func (compact) base() fyne.Theme { return fyne.CurrentApp().Settings().Theme() }

// Color implements fyne.Theme.
func (c compact) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	return c.base().Color(n, v)
}

// Font implements fyne.Theme.
func (c compact) Font(s fyne.TextStyle) fyne.Resource { return c.base().Font(s) }

// Icon implements fyne.Theme.
func (c compact) Icon(n fyne.ThemeIconName) fyne.Resource { return c.base().Icon(n) }

// Size implements fyne.Theme: a quarter of the padding inside a label.
func (c compact) Size(n fyne.ThemeSizeName) float32 {
	if n == theme.SizeNameInnerPadding {
		return c.base().Size(n) / 4
	}
	return c.base().Size(n)
}
