package keys

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Check is a check box that passes the window's keys on (Escape, F1),
// which a focused check box would swallow.
type Check struct {
	widget.Check
	Keys *Keys // the window's, which it passes keys on to
}

// NewCheck returns a check box of k's window labelled label.
func (k *Keys) NewCheck(label string, changed func(bool)) *Check {
	c := &Check{Keys: k}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey implements fyne.Focusable.
func (c *Check) TypedKey(ev *fyne.KeyEvent) {
	if !c.Keys.Passed(ev) {
		c.Check.TypedKey(ev)
	}
}

// Select is a drop-down that passes the window's keys on (Escape, F1),
// which a focused drop-down would swallow.
type Select struct {
	widget.Select
	Keys *Keys // the window's, which it passes keys on to
}

// NewSelect returns a drop-down of k's window offering options.
func (k *Keys) NewSelect(options []string, changed func(string)) *Select {
	s := &Select{Keys: k}
	s.Options, s.OnChanged = options, changed
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey implements fyne.Focusable.
func (s *Select) TypedKey(ev *fyne.KeyEvent) {
	if !s.Keys.Passed(ev) {
		s.Select.TypedKey(ev)
	}
}

// Passed hands ev to the window's keys when it is one of theirs (Escape,
// F1), for a control of the window that would swallow it, and says
// whether it did.
func (k *Keys) Passed(ev *fyne.KeyEvent) bool {
	if k == nil {
		return false // a control made without its window's keys
	}
	return ev.Name == fyne.KeyEscape && k.TypedKey(ev) || ToWindow(k.win.Canvas(), ev)
}
