package a11y

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Status is a label that tells of a change the person did not move the
// keyboard to (atspi.Status): a screen reader speaks it as it shows and
// each time its words change, which it does for no other label.
type Status struct{ widget.Label }

// NewStatus returns an empty Status that wraps its words.
func NewStatus() *Status {
	s := &Status{}
	s.Wrapping = fyne.TextWrapWord
	s.ExtendBaseWidget(s)
	return s
}

// AccessibleStatus marks s as a status (atspi.Status).
func (*Status) AccessibleStatus() {}

// AccessibilityLabel implements fyne.Accessible: the words.
func (s *Status) AccessibilityLabel() string { return s.Text }

// AccessibilityRole implements fyne.Accessible.
func (*Status) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleText }
