// Package a11y is what a screen reader gets from Fyne objects.
//
// Fyne 2.8 hands a screen reader (VoiceOver on macOS, UI Automation on
// Windows, only in builds with the accessibility tag) the objects that
// implement fyne.Accessible, reached from a window's content through
// *fyne.Container only: its drivers do not look inside a widget. So a
// custom widget is one element whose label has to say everything the
// person needs from it; Said reads that label from the objects inside.
package a11y

import "fyne.io/fyne/v2"

// Said is the labels Fyne 2.8's drivers collect from o, in order: each
// visible object that implements fyne.Accessible and is not a container
// (Windows leaves containers out), found through containers. Empty labels,
// which a screen reader cannot read, are left out.
func Said(o fyne.CanvasObject) []string {
	if o == nil || !o.Visible() {
		return nil
	}
	var said []string
	if a, ok := o.(fyne.Accessible); ok && a.AccessibilityRole() != fyne.AccessibleRoleContainer {
		if l := a.AccessibilityLabel(); l != "" {
			said = append(said, l)
		}
	}
	if c, ok := o.(*fyne.Container); ok {
		for _, child := range c.Objects {
			said = append(said, Said(child)...)
		}
	}
	return said
}
