package serversview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// secretInput is a multi-line input of name and value lines whose
// credential-looking values are masked (see secret_lines.go), with an
// eye button per such value that shows or hides it.
type secretInput struct {
	entry  *escEntry
	sep    byte
	hidden map[string]string // masked values by name
	eyes   *fyne.Container   // one button per secret line
	bar    fyne.CanvasObject // holds eyes; hidden when there are none
	object fyne.CanvasObject
}

// secretLines makes the input for f, masking the secret values of text.
func (e *editor) secretLines(f field, text string, sep byte, placeholder string) *secretInput {
	s := &secretInput{sep: sep, hidden: map[string]string{}, eyes: container.NewHBox()}
	s.entry = newEscEntry(e.keys, true)
	s.entry.TextStyle = fyne.TextStyle{Monospace: true}
	s.entry.SetMinRowsVisible(3)
	s.entry.SetPlaceHolder(placeholder)
	s.entry.SetText(hideValues(text, sep, s.hidden, looksSecret))
	s.entry.OnChanged = func(string) {
		e.edited(f)
		s.showEyes()
	}
	s.bar = container.NewHScroll(s.eyes)
	s.showEyes()
	s.object = container.NewVBox(s.entry, s.bar)
	return s
}

// text is what the input holds, with the masked values put back.
func (s *secretInput) text() string {
	return showValues(s.entry.Text, s.sep, s.hidden, func(string) bool { return true })
}

// showEyes makes a button for each secret line: Show for a masked value,
// Hide for one in the clear.
func (s *secretInput) showEyes() {
	lines := secretLines(s.entry.Text, s.sep, s.hidden)
	s.eyes.RemoveAll()
	for _, l := range lines {
		name := untrusted.Text(l.Name).Headline(30)
		b := look.NewButton("Hide "+name, theme.VisibilityOffIcon(), func() { s.set(l.Name, true) })
		if l.Masked {
			b = look.NewButton("Show "+name, theme.VisibilityIcon(), func() { s.set(l.Name, false) })
		}
		b.Importance = widget.LowImportance
		s.eyes.Add(b)
	}
	s.eyes.Refresh()
	look.Visible(s.bar, len(lines) > 0)
}

// set masks or reveals the value of the line called name.
func (s *secretInput) set(name string, hide bool) {
	is := func(n string) bool { return n == name }
	if hide {
		s.entry.SetText(hideValues(s.entry.Text, s.sep, s.hidden, func(n, _ string) bool { return is(n) }))
	} else {
		s.entry.SetText(showValues(s.entry.Text, s.sep, s.hidden, is))
	}
}
