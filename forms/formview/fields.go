package formview

import (
	"slices"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

const (
	// radioLimit is the most options shown as radio buttons; more get a drop-down.
	radioLimit = 4
	// inRow is the most characters of option titles laid out side by side.
	inRow = 40
	// titleMax cuts a title shown on a radio button, a list's checkbox or
	// a drop-down item, which cannot wrap: a longer one would widen the
	// window off the screen. Its field's own label wraps and shows it whole.
	titleMax = 40
)

// control is one field's input widget, bound to the form by name.
type control struct {
	field  *forms.Field
	object fyne.CanvasObject
	focus  fyne.Focusable // what Tab and "first invalid field" focus
	// wide is a control that needs a row's whole width, a group of
	// options or a date and a time: it goes under its label, not beside.
	wide bool
}

// newControl builds the widget for a field, filled in from the form, and
// calls changed after every edit the person makes. Initial state is set on
// the widgets' fields, before any callback and before the first render:
// Set* methods would build renderers early, which is most of the cost of a
// large form.
func newControl(f *forms.Form, field *forms.Field, k keys, opts Options, changed func()) control {
	name := field.Name
	switch field.Kind {
	case forms.Boolean:
		if field.TriState() {
			return newTriState(f, field, k, changed)
		}
		c := newCheck(k, "") // its label is the row's, beside it
		c.Checked = f.Checked(name)
		c.OnChanged = func(on bool) { f.SetChecked(name, on); changed() }
		return control{field: field, object: c, focus: c}
	case forms.Choice:
		return newChoice(f, field, k, changed)
	case forms.MultiChoice:
		return newCheckList(f, field, k, changed)
	case forms.Number, forms.Integer:
		e := newNumericEntry(k, field.Masked())
		e.Text = f.Text(name)
		e.PlaceHolder = field.Placeholder()
		e.OnChanged = func(s string) { f.SetText(name, s); changed() }
		return control{field: field, object: e, focus: e}
	}
	switch field.Format {
	case forms.FormatDate:
		e := newDateEntry(k, opts.Dates)
		if t, err := time.Parse(time.DateOnly, f.Text(name)); err == nil {
			e.Text = opts.Dates.Format(t)
		}
		e.OnChanged = func(s string) {
			iso, invalid := opts.Dates.DateValue(s)
			f.SetText(name, iso)
			f.SetInvalid(name, invalid)
			changed()
		}
		return control{field: field, object: e, focus: e}
	case forms.FormatDateTime:
		d := newDateTimeInput(k, opts.Dates, opts.Zone, f.Text(name), func(text, invalid string) {
			f.SetText(name, text)
			f.SetInvalid(name, invalid)
			changed()
		})
		return control{field: field, object: d.object, focus: d.date, wide: true}
	}
	e := newEntry(k, field.Masked(), field.MultiLine())
	e.Text = f.Text(name)
	e.PlaceHolder = field.Placeholder()
	e.OnChanged = func(s string) { f.SetText(name, s); changed() }
	return control{field: field, object: e, focus: e}
}

// newChoice shows few options as radio buttons and many as a drop-down.
// An optional drop-down's first entry, Not chosen, takes the choice back,
// as a second tap does in a radio group.
func newChoice(f *forms.Form, field *forms.Field, k keys, changed func()) control {
	name := field.Name
	var own []string // the drop-down's entries of its own
	dropDown := len(field.Options) > radioLimit
	if dropDown && !field.Required {
		own = []string{notChosen}
	}
	titles, values := optionTitles(field, own...)
	selected := ""
	if chosen := f.Chosen(name); len(chosen) == 1 {
		selected = translate(chosen, values, titles)[0]
	}
	set := func(title string) {
		f.SetChosen(name, translate([]string{title}, titles, values)...)
		changed()
	}
	if !dropDown {
		r := newRadios(k, titles, sideBySide(titles))
		r.required = field.Required
		r.setSelected(selected)
		r.onChanged = set
		return control{field: field, object: r, focus: r, wide: true}
	}
	s := newChoiceSelect(k, append(own, titles...))
	s.Selected = selected
	s.OnChanged = func(title string) {
		set(title)
		if title == notChosen {
			s.ClearSelected() // the placeholder again
		}
	}
	return control{field: field, object: s, focus: s}
}

// notChosen is an optional drop-down's first entry, which leaves the
// field out of what is sent.
const notChosen = "Not chosen"

// The three states of an optional boolean without a default, as a row of
// radio buttons: a check box cannot say that nothing was chosen.
const (
	yes    = "Yes"
	no     = "No"
	notSet = "Not set"
)

// newTriState shows an optional boolean without a default as Yes, No or
// Not set, which it starts as: it is sent only once the person sets it.
func newTriState(f *forms.Form, field *forms.Field, k keys, changed func()) control {
	name := field.Name
	r := newRadios(k, []string{yes, no, notSet}, true)
	r.required = true // Not set is a choice of its own
	switch {
	case f.Unset(name):
		r.setSelected(notSet)
	case f.Checked(name):
		r.setSelected(yes)
	default:
		r.setSelected(no)
	}
	r.onChanged = func(option string) {
		if option == notSet {
			f.ClearChecked(name)
		} else {
			f.SetChecked(name, option == yes)
		}
		changed()
	}
	return control{field: field, object: r, focus: r, wide: true}
}

// newCheckList shows a multiple choice as one check box per option, each
// a Tab stop of its own, as check boxes are.
func newCheckList(f *forms.Form, field *forms.Field, k keys, changed func()) control {
	name := field.Name
	titles, values := optionTitles(field)
	chosen := translate(f.Chosen(name), values, titles)
	checks := make([]*check, len(titles))
	boxes := make([]fyne.CanvasObject, len(titles))
	for i, t := range titles {
		c := newCheck(k, t)
		c.Checked = slices.Contains(chosen, t)
		c.OnChanged = func(bool) {
			var selected []string
			for j, c := range checks {
				if c.Checked {
					selected = append(selected, titles[j])
				}
			}
			f.SetChosen(name, translate(selected, titles, values)...)
			changed()
		}
		checks[i], boxes[i] = c, c
	}
	// One under another as close as lines of text, as a check group is.
	list := container.New(layout.NewCustomPaddedVBoxLayout(0), boxes...)
	if sideBySide(titles) {
		list = container.NewHBox(boxes...)
	}
	var first fyne.Focusable
	if len(checks) > 0 {
		first = checks[0]
	}
	return control{field: field, object: list, focus: first, wide: true}
}

// optionTitles returns the titles to show, made unique so that each maps
// back to exactly one value and is none of reserved (the control's own
// entries), and the values in the same order.
func optionTitles(field *forms.Field, reserved ...string) (titles, values []string) {
	seen := map[string]bool{}
	for _, r := range reserved {
		seen[r] = true
	}
	for _, o := range field.Options {
		t := short(o.Title)
		if seen[t] {
			t += " (" + untrusted.Text(o.Value).Line() + ")"
		}
		seen[t] = true
		titles = append(titles, t)
		values = append(values, o.Value)
	}
	return titles, values
}

// short is a title on one line, cut to titleMax characters.
func short(t untrusted.Text) string {
	line := t.Line()
	if head, cut := untrusted.Fold(line, titleMax-1); cut {
		return head + "…"
	}
	return line
}

// sideBySide reports whether options are few and short enough for a row.
func sideBySide(titles []string) bool {
	n := 0
	for _, t := range titles {
		n += utf8.RuneCountInString(t)
	}
	return len(titles) <= radioLimit && n <= inRow
}

// translate maps each key found in from to the entry of to at the same
// index: option values to titles and back.
func translate(keys, from, to []string) []string {
	var out []string
	for _, k := range keys {
		for i := range from {
			if from[i] == k {
				out = append(out, to[i])
			}
		}
	}
	return out
}
