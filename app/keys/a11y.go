package keys

import (
	"cmp"

	"fyne.io/fyne/v2"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// What a screen reader gets from an Entry (see package a11y).

var _ fyne.Accessible = (*Entry)(nil)

// AccessibilityLabel implements fyne.Accessible: the field's name, its
// placeholder, which says what it searches ("Search" when it has none and
// is the window's search), and what it holds, quoted and cut short.
func (e *Entry) AccessibilityLabel() string {
	name := "Text field"
	if e.keys != nil && e.keys.search == fyne.Focusable(e) {
		name = "Search"
	}
	held := "empty"
	if e.Text != "" {
		// The person's own words, but pasted text may hold anything.
		held = untrusted.Text(e.Text).Quote()
	}
	return cmp.Or(e.PlaceHolder, name) + ": " + held
}

// AccessibilityRole implements fyne.Accessible.
func (e *Entry) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleText }

var (
	_ fyne.Accessible = (*Check)(nil)
	_ fyne.Accessible = (*Select)(nil)
)

// AccessibilityLabel implements fyne.Accessible: its words and its state.
func (c *Check) AccessibilityLabel() string {
	state := "not checked"
	if c.Checked {
		state = "checked"
	}
	return c.Text + ": " + state
}

// AccessibilityRole implements fyne.Accessible: a check box is pressed.
func (c *Check) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleButton }

// AccessibilityLabel implements fyne.Accessible: what is chosen.
func (s *Select) AccessibilityLabel() string { return cmp.Or(s.Selected, "nothing chosen") }

// AccessibilityRole implements fyne.Accessible: a drop-down is a button
// that opens a menu.
func (s *Select) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleButton }
