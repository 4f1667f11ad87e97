package serversview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Escape reaches the canvas only when nothing has focus: a focused entry,
// drop-down or checkbox swallows it, and Fyne has no shortcut without a
// modifier. The inputs of the Add/Edit dialog and the call window's JSON
// editor are these, which pass Escape on.

// escEntry is an entry that passes Escape on.
type escEntry struct {
	widget.Entry
	onEscape func()
	label    string // what a screen reader calls it (a11y.go)
}

func newEscEntry(onEscape func(), multiLine bool) *escEntry {
	e := &escEntry{onEscape: onEscape}
	e.MultiLine = multiLine
	if multiLine {
		e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip) // as widget.NewMultiLineEntry does
	}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey implements fyne.Focusable.
func (e *escEntry) TypedKey(ev *fyne.KeyEvent) { escapeOr(ev, e.onEscape, e.Entry.TypedKey) }

// AcceptsTab is false for the multi-line ones too (Fyne's take Tab as
// text): Tab moves on, as it does from a browser's text area, so that a
// person on the keyboard is never trapped in the Environment box.
func (e *escEntry) AcceptsTab() bool { return false }

// escSelect is a drop-down that passes Escape on.
type escSelect struct {
	widget.Select
	onEscape func()
	label    string // what a screen reader calls it (a11y.go)
}

func newEscSelect(onEscape func(), options []string) *escSelect {
	s := &escSelect{onEscape: onEscape}
	s.Options = options
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey implements fyne.Focusable.
func (s *escSelect) TypedKey(ev *fyne.KeyEvent) { escapeOr(ev, s.onEscape, s.Select.TypedKey) }

// escCheck is a checkbox that passes Escape on.
type escCheck struct {
	widget.Check
	onEscape func()
	label    string // what a screen reader calls it (a11y.go)
}

func newEscCheck(onEscape func(), label string) *escCheck {
	c := &escCheck{onEscape: onEscape}
	c.Text = label
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey implements fyne.Focusable.
func (c *escCheck) TypedKey(ev *fyne.KeyEvent) { escapeOr(ev, c.onEscape, c.Check.TypedKey) }

// escapeOr runs onEscape for Escape and passes other keys to next.
func escapeOr(ev *fyne.KeyEvent, onEscape func(), next func(*fyne.KeyEvent)) {
	if ev.Name == fyne.KeyEscape {
		onEscape()
		return
	}
	next(ev)
}

// typedKey handles the keys the Servers window's widgets leave while a
// dialog is open over it: Escape does what the dialog says it does.
// Without a dialog, keys.Close has Escape close the window.
func (w *Window) typedKey(ev *fyne.KeyEvent) {
	if ev.Name != fyne.KeyEscape {
		return
	}
	if f, ok := w.escapes[w.win.Canvas().Overlays().Top()]; ok {
		f()
	}
}
