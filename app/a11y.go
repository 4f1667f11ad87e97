package app

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
)

// What a screen reader gets from the app's own widgets (see package a11y).

var (
	_ fyne.Accessible = (*keyHold)(nil)
	_ fyne.Accessible = (*spin)(nil)
)

// AccessibilityLabel implements fyne.Accessible: keyHold has the
// keyboard of a window the app opened by itself, so a person who lands on
// it hears why typing does nothing and how to reach the form, as the
// window shows it. Once the hold is over it says nothing, as a reader of
// the whole window would otherwise be told typing is still held.
func (k *keyHold) AccessibilityLabel() string {
	if k.st.free {
		return ""
	}
	return heldNotice
}

// AccessibilityRole implements fyne.Accessible.
func (k *keyHold) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleText }

// AccessibilityLabel implements fyne.Accessible: the bounds, which the
// field does not show, and the number it holds. The form's label beside
// it names what the number is.
func (s *spin) AccessibilityLabel() string {
	held := strings.TrimSpace(s.Text)
	if held == "" {
		held = "empty"
	}
	return fmt.Sprintf("Number from %d to %d: %s", s.min, s.max, strings.TrimSpace(held+" "+s.unit))
}

// AccessibleTitle names it where its form's label does not say what it
// counts ("Keep requests for (days)"); "" leaves the label (atspi.Titled).
func (s *spin) AccessibleTitle() string { return s.title }

// AccessibilityRole implements fyne.Accessible.
func (s *spin) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleText }
