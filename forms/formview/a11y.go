package formview

import (
	"cmp"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// What a screen reader gets from a form (see package a11y). Fyne 2.8 reads
// nothing inside a widget, and a View is one: its label is the whole form.
// Each control says its field's title and value too, for the day Fyne
// reads inside widgets, and the View's label is made of theirs.

var (
	_ fyne.Accessible = (*View)(nil)
	_ fyne.Accessible = (*entry)(nil)
	_ fyne.Accessible = (*numericEntry)(nil)
	_ fyne.Accessible = (*dateEntry)(nil)
	_ fyne.Accessible = (*check)(nil)
	_ fyne.Accessible = (*choice)(nil)
	_ fyne.Accessible = (*picker)(nil)
	_ fyne.Accessible = (*radios)(nil)
	_ fyne.Accessible = (*tapArea)(nil)
	_ fyne.Accessible = (*button)(nil) // as Fyne's button says itself
)

// AccessibilityLabel implements fyne.Accessible: the form as it reads, who
// asks and the message, each field with its value, description and error,
// then what the bar says and its buttons.
func (v *View) AccessibilityLabel() string {
	var said []string
	// The header, the body (the fields, or the words "No fields"), the
	// bar: the order the form reads in.
	said = append(said, a11y.Said(v.top)...)
	if len(v.rows) == 0 {
		said = append(said, a11y.Said(v.body)...)
	}
	for _, r := range v.rows {
		said = append(said, r.said()...)
	}
	said = append(said, a11y.Said(v.bar)...)
	return strings.Join(said, "\n")
}

// AccessibilityRole implements fyne.Accessible. The form is text, not a
// container: Windows leaves containers out, and Fyne would not read inside.
func (v *View) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleText }

// said is what a row says: its control's title and value (a multiple
// choice says its title and the options chosen, in one line, as a
// drop-down would), then its hint or error, then the warning a
// credential-looking field shows.
func (r row) said() []string {
	var said []string
	if r.field.Kind == forms.MultiChoice {
		said = append(said, fieldTitle(r.field)+": "+cmp.Or(strings.Join(chosen(r.object), ", "), "nothing chosen"))
	} else {
		said = append(said, a11y.Said(r.object)...)
	}
	said = append(said, a11y.Said(r.hint)...)
	said = append(said, a11y.Said(r.err)...)
	if r.field.Masked() {
		said = append(said, secretWarning)
	}
	return said
}

// chosen is the titles of the ticked options of a multiple choice's list
// of checks (newCheckList), titles already made safe (optionTitles).
func chosen(list fyne.CanvasObject) []string {
	var titles []string
	if c, ok := list.(*fyne.Container); ok {
		for _, o := range c.Objects {
			if box, ok := o.(*check); ok && box.Checked {
				titles = append(titles, box.Text)
			}
		}
	}
	return titles
}

// fieldTitle is what a screen reader calls a field: its label, on one line.
func fieldTitle(f *forms.Field) string {
	title := f.Label().Line()
	if f.MustFill() {
		title += " (required)"
	}
	return title
}

// spoken is what a screen reader that reads inside widgets (AT-SPI on
// Linux, app/atspi) calls a control and says after its name: its row's
// hint, or its error once it has one.
type spoken struct {
	title     string
	hint, err *widget.Label // the row's; nil for a control in no row
}

// AccessibleTitle is the control's name without its value.
func (s *spoken) AccessibleTitle() string { return s.title }

// AccessibleDescription is the row's hint and error, as they show.
func (s *spoken) AccessibleDescription() string {
	var said []string
	for _, l := range []*widget.Label{s.err, s.hint} {
		if l != nil && l.Visible() && l.Text != "" {
			said = append(said, l.Text)
		}
	}
	return strings.Join(said, "\n")
}

// AccessibleInvalid is whether the row shows an error.
func (s *spoken) AccessibleInvalid() bool { return s.err != nil && s.err.Visible() && s.err.Text != "" }

// name gives the control's widgets their field's title and the row's hint
// and error; a date-time's two entries say which part they take, and a
// multiple choice's checks which option each is.
func (c control) name(f *forms.Field, hint, err *widget.Label) {
	say := func(title string) spoken { return spoken{title: title, hint: hint, err: err} }
	title := fieldTitle(f)
	switch o := c.object.(type) {
	case *fyne.Container:
		if f.Kind == forms.MultiChoice {
			nameOptions(o, say(title))
		} else {
			nameDateTime(o, say(title))
		}
	case *entry:
		o.spoken = say(title)
	case *numericEntry:
		o.spoken = say(title)
	case *dateEntry:
		o.name(say(title))
	case *check:
		o.spoken = say(title)
	case *choice:
		o.spoken = say(title)
	case *radios:
		o.spoken = say(title)
	}
}

// nameOptions names the checks of a multiple choice's list: "Tags, work",
// as a check alone would not say which field it belongs to.
func nameOptions(list *fyne.Container, s spoken) {
	for _, o := range list.Objects {
		if c, ok := o.(*check); ok {
			c.spoken = s
			c.title = s.title + ", " + c.Text
		}
	}
}

// nameDateTime names the entries of a dateTimeInput's object.
func nameDateTime(o fyne.CanvasObject, s spoken) {
	switch o := o.(type) {
	case *dateEntry:
		d := s
		d.title += ", date"
		o.name(d)
	case *entry:
		o.spoken = s
		o.title += ", time of day"
	case *fyne.Container:
		for _, c := range o.Objects {
			nameDateTime(c, s)
		}
	}
}

// name gives the entry and its calendar button their title.
func (e *dateEntry) name(s spoken) {
	e.spoken = s
	if p, ok := e.ActionItem.(*picker); ok {
		p.title = "Calendar for " + s.title
	}
}

// AccessibilityLabel implements fyne.Accessible: the field's title and
// what the entry holds, never a password.
func (e *entry) AccessibilityLabel() string {
	return cmp.Or(e.title, "Text field") + ": " + typed(e.Text, e.Password)
}

// AccessibilityRole implements fyne.Accessible.
func (e *entry) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleText }

// typed is what an entry holds, as a screen reader should say it: the
// text on one line, quoted and cut short (it may be a server's default).
func typed(text string, password bool) string {
	switch {
	case text == "":
		return "empty"
	case password:
		return "hidden"
	}
	return untrusted.Text(text).Quote()
}

// AccessibilityLabel implements fyne.Accessible.
func (c *check) AccessibilityLabel() string {
	state := "not checked"
	if c.Checked {
		state = "checked"
	}
	return cmp.Or(c.title, c.Text, "Checkbox") + ": " + state
}

// AccessibilityRole implements fyne.Accessible: a checkbox is pressed.
func (c *check) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleButton }

// AccessibilityLabel implements fyne.Accessible. The options are titles
// already made safe (optionTitles).
func (s *choice) AccessibilityLabel() string {
	return cmp.Or(s.title, "Choice") + ": " + cmp.Or(s.Selected, "nothing chosen")
}

// AccessibilityRole implements fyne.Accessible: a drop-down is a button
// that opens a menu, as on macOS.
func (s *choice) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleButton }

// AccessibilityLabel implements fyne.Accessible.
func (p *picker) AccessibilityLabel() string { return cmp.Or(p.title, "Calendar") }

// AccessibilityRole implements fyne.Accessible.
func (p *picker) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleButton }

// AccessibilityLabel implements fyne.Accessible: the field's title and
// the option chosen. The options are titles already made safe
// (optionTitles), or the words of a yes/no.
func (r *radios) AccessibilityLabel() string {
	return cmp.Or(r.title, "Options") + ": " + cmp.Or(r.Selected(), "nothing chosen")
}

// AccessibilityRole implements fyne.Accessible: a radio group is pressed
// or arrowed to a choice, as a drop-down is.
func (r *radios) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleButton }

// AccessibilityLabel implements fyne.Accessible: the text it shows, a
// check box's label and hint or error, as a label tied to a control
// reads. The box says its own title and state; a click here is the box's.
func (t *tapArea) AccessibilityLabel() string {
	return strings.Join(a11y.Said(t.content), "\n")
}

// AccessibilityRole implements fyne.Accessible: text, as the keyboard and
// a screen reader press the box itself.
func (t *tapArea) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleText }

// AccessibleParts is the form in reading order: who asks and the message,
// the fields, the Review, then the buttons (app/atspi reads inside it).
func (v *View) AccessibleParts() []fyne.CanvasObject { return []fyne.CanvasObject{v.content} }

// AccessibleParts is what the area shows: a check box's label and hint.
func (t *tapArea) AccessibleParts() []fyne.CanvasObject { return []fyne.CanvasObject{t.content} }

// AccessibleOptions is the options, each a radio button to a screen
// reader, and the one chosen (-1 for none).
func (r *radios) AccessibleOptions() ([]string, int) { return r.options, r.selected }

// AccessibleChoose chooses option i. Unlike a click it never unchooses
// the option chosen: a screen reader's "select" only selects.
func (r *radios) AccessibleChoose(i int) { r.choose(i) }
