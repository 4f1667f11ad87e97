// Package cmdtext shows a command line or a path wrapped where a person
// reads a break: at spaces and after path separators, never inside a word
// (unless one word alone is wider than the line). Fyne wraps at spaces
// only, or anywhere: "server-filesy|stem".
package cmdtext

import (
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Lines breaks text into lines no wider than width, as measure finds
// them: at spaces, which end a line, and after '/' or '\', which stay on
// it. A piece wider than a line alone is cut where it must.
func Lines(text string, width float32, measure func(string) float32) []string {
	var lines []string
	line := ""
	flush := func() {
		for l := strings.TrimRight(line, " "); l != ""; {
			head := fit(l, width, measure)
			lines = append(lines, head)
			l = l[len(head):]
		}
		line = ""
	}
	for _, piece := range pieces(text) {
		if line != "" && measure(strings.TrimRight(line+piece, " ")) > width {
			flush()
		}
		line += piece
	}
	flush()
	return lines
}

// pieces splits text after each run of spaces and after each path
// separator.
func pieces(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		switch {
		case text[i] == '/' || text[i] == '\\':
			out = append(out, text[start:i+1])
			start = i + 1
		case text[i] == ' ' && (i+1 == len(text) || text[i+1] != ' '):
			out = append(out, text[start:i+1])
			start = i + 1
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// fit is the longest start of s no wider than width, at least one
// character.
func fit(s string, width float32, measure func(string) float32) string {
	end := len(s)
	for end > 0 && measure(s[:end]) > width {
		_, n := utf8.DecodeLastRuneInString(s[:end])
		end -= n
	}
	if end == 0 {
		_, end = utf8.DecodeRuneInString(s)
	}
	return s[:end]
}

// Label shows a command line or path in a fixed-width font, wrapped by
// Lines at the width it is given. Right-click copies it whole, as one
// line.
type Label struct {
	widget.Label
	text  string
	width float32 // the width text was wrapped at
}

// New returns a Label showing text.
func New(text string) *Label {
	l := &Label{text: text, width: -1}
	l.TextStyle = fyne.TextStyle{Monospace: true}
	l.Truncation = fyne.TextTruncateClip // as narrow as the layout gives it
	l.Label.Text = text
	l.ExtendBaseWidget(l)
	return l
}

// Text is the whole command line.
func (l *Label) Text() string { return l.text }

// Resize implements fyne.CanvasObject: the text wraps at the new width.
func (l *Label) Resize(size fyne.Size) {
	if size.Width != l.width {
		l.width = size.Width
		style := l.TextStyle
		measure := func(s string) float32 { return fyne.MeasureText(s, theme.TextSize(), style).Width }
		l.Label.Text = strings.Join(Lines(l.text, size.Width-2*theme.InnerPadding(), measure), "\n")
		l.Label.Refresh()
	}
	l.Label.Resize(size)
}

// TappedSecondary implements fyne.SecondaryTappable: a menu to copy the
// command line, which the wrapped text cannot be selected as.
func (l *Label) TappedSecondary(ev *fyne.PointEvent) {
	a := fyne.CurrentApp()
	c := a.Driver().CanvasForObject(l)
	if c == nil {
		return
	}
	copyItem := fyne.NewMenuItem("Copy", func() { a.Clipboard().SetContent(l.text) })
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", copyItem), c, ev.AbsolutePosition)
}
