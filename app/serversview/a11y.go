package serversview

import (
	"cmp"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// What a screen reader gets from the Servers window's own widgets (see
// package a11y): each says what it is called and what it holds.

var (
	_ fyne.Accessible = (*escEntry)(nil)
	_ fyne.Accessible = (*escSelect)(nil)
	_ fyne.Accessible = (*escCheck)(nil)
	_ fyne.Accessible = (*toolRow)(nil)
)

// labelled is an input that takes its name from the label before it,
// and its description from the hint under it.
type labelled interface {
	setLabel(string)
	setHint(string)
}

func (e *escEntry) setLabel(l string)  { e.label = l }
func (s *escSelect) setLabel(l string) { s.label = l }
func (c *escCheck) setLabel(l string)  { c.label = l }

func (e *escEntry) setHint(h string)  { e.hint = h }
func (s *escSelect) setHint(h string) { s.hint = h }
func (c *escCheck) setHint(h string)  { c.hint = h }

// AccessibleDescription is the hint under the input (atspi.Described),
// read when it gets the keyboard rather than as text of its own.
func (e *escEntry) AccessibleDescription() string  { return e.hint }
func (s *escSelect) AccessibleDescription() string { return s.hint }
func (c *escCheck) AccessibleDescription() string  { return c.hint }

// AccessibleTitle is the label beside the input (atspi.Titled): AT-SPI
// names an entry or a drop-down by it, not by its placeholder.
func (e *escEntry) AccessibleTitle() string  { return e.label }
func (s *escSelect) AccessibleTitle() string { return s.label }
func (c *escCheck) AccessibleTitle() string  { return c.label }

// labelInputs names each input after the label laid out before it, as a
// form's label and input pairs read: "Name", then the entry for it. It
// looks through containers, scrolls and accordions.
func labelInputs(o fyne.CanvasObject) {
	switch o := o.(type) {
	case *fyne.Container:
		for i, c := range o.Objects {
			if l, ok := c.(*widget.Label); ok && i+1 < len(o.Objects) {
				if in := firstInput(o.Objects[i+1]); in != nil {
					in.setLabel(l.Text)
				}
			}
			labelInputs(c)
		}
	case *container.Scroll:
		labelInputs(o.Content)
	case *look.Disclosure:
		for _, part := range o.AccessibleParts() {
			labelInputs(part)
		}
	}
}

// firstInput is the first input in o, looking through containers.
func firstInput(o fyne.CanvasObject) labelled {
	switch o := o.(type) {
	case labelled:
		return o
	case *fyne.Container:
		for _, c := range o.Objects {
			if in := firstInput(c); in != nil {
				return in
			}
		}
	}
	return nil
}

// AccessibilityLabel implements fyne.Accessible: the entry's name and
// what it holds, on one line, quoted and cut short.
func (e *escEntry) AccessibilityLabel() string {
	held := "empty"
	if e.Text != "" {
		held = untrusted.Text(e.Text).Quote()
	}
	return cmp.Or(e.label, "Text field") + ": " + held
}

// AccessibilityRole implements fyne.Accessible.
func (e *escEntry) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleText }

// AccessibilityLabel implements fyne.Accessible. The options are the
// app's own words.
func (s *escSelect) AccessibilityLabel() string {
	return cmp.Or(s.label, "Choice") + ": " + cmp.Or(s.Selected, "nothing chosen")
}

// AccessibilityRole implements fyne.Accessible: a drop-down is a button
// that opens a menu, as on macOS.
func (s *escSelect) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleButton }

// AccessibilityLabel implements fyne.Accessible.
func (c *escCheck) AccessibilityLabel() string {
	state := "not checked"
	if c.Checked {
		state = "checked"
	}
	return cmp.Or(c.label, c.Text, "Checkbox") + ": " + state
}

// AccessibilityRole implements fyne.Accessible: a checkbox is pressed.
func (c *escCheck) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleButton }

// AccessibleFocus is the row's Call… button, which has the keyboard for it
// (atspi.Focuser).
func (r *toolRow) AccessibleFocus() fyne.Focusable { return r.call }

// AccessibilityLabel implements fyne.Accessible: what its button does to
// which tool, the tool's name where its title differs, and the first line
// of its description.
func (r *toolRow) AccessibilityLabel() string {
	label := strings.TrimSuffix(r.call.Text, "…") + " " + toolTitle(r.tool).Line()
	if toolTitle(r.tool) != r.tool.ShownName() {
		label += " (" + r.tool.ShownName().Line() + ")"
	}
	if r.tool.Description != "" {
		label += ": " + r.tool.Description.Headline(200)
	}
	return label
}

// AccessibilityRole implements fyne.Accessible: the row's one action is
// its Call button.
func (r *toolRow) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleButton }
