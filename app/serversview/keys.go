package serversview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/keys"
)

// Escape and F1 reach the canvas only when nothing has focus: a focused
// entry, drop-down or checkbox swallows them, and Fyne has no shortcut
// without a modifier. The inputs of the Add/Edit dialog and the call
// window's JSON editor are these, which pass Escape and F1 on, and say when they take the
// keyboard, which Fyne tells nobody, so that the dialog can scroll them
// into view.

// passOn is what an input hands its owner.
type passOn struct {
	win    fyne.Window // gets F1 (keys.ToWindow)
	escape func()
	focus  func(fyne.CanvasObject) // nil: nobody follows the focus
}

// key runs escape for Escape, hands F1 to the window and passes other
// keys to next.
func (p passOn) key(ev *fyne.KeyEvent, next func(*fyne.KeyEvent)) {
	switch {
	case ev.Name == fyne.KeyEscape:
		p.escape()
	case keys.ToWindow(p.win.Canvas(), ev):
	default:
		next(ev)
	}
}

// focused tells the owner that o took the keyboard.
func (p passOn) focused(o fyne.CanvasObject) {
	if p.focus != nil {
		p.focus(o)
	}
}

// escEntry is an entry that passes Escape on.
type escEntry struct {
	widget.Entry
	keys        passOn
	label, hint string // what a screen reader calls it, and says of it (a11y.go)
}

func newEscEntry(keys passOn, multiLine bool) *escEntry {
	e := &escEntry{keys: keys}
	e.MultiLine = multiLine
	if multiLine {
		e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip) // as widget.NewMultiLineEntry does
	}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey implements fyne.Focusable.
func (e *escEntry) TypedKey(ev *fyne.KeyEvent) { e.keys.key(ev, e.Entry.TypedKey) }

// FocusGained implements fyne.Focusable.
func (e *escEntry) FocusGained() { e.Entry.FocusGained(); e.keys.focused(e) }

// AcceptsTab is false for the multi-line ones too (Fyne's take Tab as
// text): Tab moves on, as it does from a browser's text area, so that a
// person on the keyboard is never trapped in the Environment box.
func (e *escEntry) AcceptsTab() bool { return false }

// escSelect is a drop-down that passes Escape on.
type escSelect struct {
	widget.Select
	keys        passOn
	label, hint string // what a screen reader calls it, and says of it (a11y.go)
}

func newEscSelect(keys passOn, options []string) *escSelect {
	s := &escSelect{keys: keys}
	s.Options = options
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey implements fyne.Focusable.
func (s *escSelect) TypedKey(ev *fyne.KeyEvent) { s.keys.key(ev, s.Select.TypedKey) }

// FocusGained implements fyne.Focusable.
func (s *escSelect) FocusGained() { s.Select.FocusGained(); s.keys.focused(s) }

// escCheck is a checkbox that passes Escape on.
type escCheck struct {
	widget.Check
	keys        passOn
	label, hint string // what a screen reader calls it, and says of it (a11y.go)
}

func newEscCheck(keys passOn, label string) *escCheck {
	c := &escCheck{keys: keys}
	c.Text = label
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey implements fyne.Focusable.
func (c *escCheck) TypedKey(ev *fyne.KeyEvent) { c.keys.key(ev, c.Check.TypedKey) }

// FocusGained implements fyne.Focusable.
func (c *escCheck) FocusGained() { c.Check.FocusGained(); c.keys.focused(c) }
