package cmdtext

import "fyne.io/fyne/v2"

// What a screen reader gets from a Label (see package a11y).

var _ fyne.Accessible = (*Label)(nil)

// AccessibilityLabel implements fyne.Accessible: the whole command line,
// on one line, not as wrapped for the eye. Callers hand New text made
// safe to show already.
func (l *Label) AccessibilityLabel() string { return l.text }

// AccessibilityRole implements fyne.Accessible.
func (l *Label) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleText }
