package wheel

import (
	"strings"

	"fyne.io/fyne/v2"

	"github.com/elicitdesk/elicitdesk/app/a11y"
)

var _ fyne.Accessible = (*Scroll)(nil)

// AccessibilityLabel implements fyne.Accessible: what the content says
// (see package a11y), as Fyne 2.8 reads nothing inside a scroll.
func (s *Scroll) AccessibilityLabel() string {
	if said := a11y.Said(s.Content); len(said) > 0 {
		return strings.Join(said, "\n")
	}
	return "Scrolled area"
}

// AccessibilityRole implements fyne.Accessible. What it holds is read as
// text: Windows leaves a container out, and with it all inside.
func (s *Scroll) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleText }
