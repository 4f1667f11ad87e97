package forms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonnum"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// Form is one form being filled in: what the person has entered so far. It
// holds no widgets, so everything it decides can be tested without a window.
// A Form is not safe for concurrent use; the UI drives it from one goroutine.
type Form struct {
	Schema *Schema
	inputs []input // parallel to Schema.Fields
}

// input is the raw state of one field, as its widget holds it.
type input struct {
	text    string   // Text, Number, Integer: what was typed
	checked bool     // Boolean
	unset   bool     // a TriState boolean not answered yet: checked means nothing, and nothing is sent
	chosen  []string // Choice (at most one) and MultiChoice, in option order
	invalid string   // a widget's own complaint, such as an unfinished date
}

// NewForm starts a form filled in with the schema's defaults.
func NewForm(s *Schema) *Form {
	f := &Form{Schema: s, inputs: make([]input, len(s.Fields))}
	for i := range s.Fields {
		field, in := &s.Fields[i], &f.inputs[i]
		in.unset = field.TriState()
		switch d := field.Default.(type) {
		case string:
			if field.Kind == Choice {
				in.chosen = field.ordered([]string{d})
			} else {
				in.text = field.visible(d)
			}
		case json.Number:
			in.text = d.String()
		case bool:
			in.checked = d
		case []string:
			in.chosen = field.ordered(d)
		}
	}
	return f
}

// visible is a text default as the person sees it in the field: with its
// hidden characters as markers, so that Accept never sends what the person
// could not see. A one-line field shows line breaks as markers too, and
// a run of eight spaces or more as one ("⟨200 spaces⟩"): a field scrolled
// to its start shows none of what such a run pushes away.
func (f *Field) visible(text string) string {
	if f.MultiLine() {
		return untrusted.Text(text).Block()
	}
	return longSpaces.ReplaceAllStringFunc(untrusted.Text(text).Line(), func(run string) string {
		return fmt.Sprintf("⟨%d spaces⟩", utf8.RuneCountInString(run))
	})
}

// longSpaces is a run of eight spaces or more, of any width.
var longSpaces = regexp.MustCompile(`[ \p{Zs}]{8,}`)

// ordered keeps the values that are options, in option order, once each.
func (f *Field) ordered(values []string) []string {
	var out []string
	for _, o := range f.Options {
		if slices.Contains(values, o.Value) {
			out = append(out, o.Value)
		}
	}
	return out
}

func (f *Form) at(name string) (*Field, *input) {
	i, ok := f.Schema.index[name]
	if !ok {
		return nil, &input{}
	}
	return &f.Schema.Fields[i], &f.inputs[i]
}

// Text returns what is typed in a text or number field.
func (f *Form) Text(name string) string { _, in := f.at(name); return in.text }

// Checked returns the state of a boolean field: false while it is unset.
func (f *Form) Checked(name string) bool { _, in := f.at(name); return in.checked && !in.unset }

// Unset reports whether a boolean field holds no answer: a TriState field
// the person has not set, or has set back to not set. It is not sent.
func (f *Form) Unset(name string) bool { _, in := f.at(name); return in.unset }

// Chosen returns the selected values of a choice field.
func (f *Form) Chosen(name string) []string { _, in := f.at(name); return slices.Clone(in.chosen) }

// SetText records what is typed in a text or number field.
func (f *Form) SetText(name, text string) {
	_, in := f.at(name)
	in.text, in.invalid = text, ""
}

// SetChecked records the state of a boolean field, which is then set.
func (f *Form) SetChecked(name string, on bool) {
	_, in := f.at(name)
	in.checked, in.unset = on, false
}

// ClearChecked sets a TriState boolean field back to not set, so that it
// is left out of the content; other fields do not change.
func (f *Form) ClearChecked(name string) {
	if field, in := f.at(name); field != nil && field.TriState() {
		in.unset = true
	}
}

// SetChosen records the selection of a choice field; unknown values are dropped.
func (f *Form) SetChosen(name string, values ...string) {
	field, in := f.at(name)
	if field != nil {
		in.chosen = field.ordered(values)
	}
}

// SetInvalid records a widget's own complaint about its input, such as a date
// that does not parse yet; "" clears it.
func (f *Form) SetInvalid(name, msg string) { _, in := f.at(name); in.invalid = msg }

// Error returns what is wrong with one field, or "".
func (f *Form) Error(name string) string {
	i, ok := f.Schema.index[name]
	if !ok {
		return ""
	}
	_, _, msg := f.value(i)
	return msg
}

// Errors returns what is wrong with each invalid field.
func (f *Form) Errors() FieldErrors {
	errs := FieldErrors{}
	for i, field := range f.Schema.Fields {
		if _, _, msg := f.value(i); msg != "" {
			errs[field.Name] = msg
		}
	}
	return errs
}

// Content returns the JSON object Accept would send, fields in schema order.
// Optional fields left empty are left out, not sent as "", and so is a
// boolean the person has not set (see Field.TriState).
func (f *Form) Content() json.RawMessage { return f.content(false) }

// Review is Content as a person may see it: the value of each masked field
// is a dot per character, as its input shows it, so reviewing the answer
// does not reveal a password to someone looking over a shoulder.
func (f *Form) Review() json.RawMessage { return f.content(true) }

// maskDot is what a masked field shows for each character.
const maskDot = "•"

func (f *Form) content(masked bool) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, field := range f.Schema.Fields {
		v, sent, _ := f.value(i)
		if !sent {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		if masked && field.Masked() {
			switch x := v.(type) {
			case string:
				v = strings.Repeat(maskDot, utf8.RuneCountInString(x))
			case json.Number: // a string in JSON, so that it can show dots
				v = strings.Repeat(maskDot, len(x))
			}
		}
		name, _ := json.Marshal(field.Name)
		val, _ := json.Marshal(v) // strings, numbers, bools and string slices always marshal
		b.Write(name)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// value returns field i's value as it would be sent, whether it is sent at
// all, and what is wrong with it.
func (f *Form) value(i int) (v any, sent bool, msg string) {
	field, in := &f.Schema.Fields[i], &f.inputs[i]
	if in.invalid != "" {
		return nil, false, in.invalid
	}
	switch field.Kind {
	case Boolean:
		if in.unset {
			return nil, false, ""
		}
		return in.checked, true, ""
	case MultiChoice:
		if len(in.chosen) == 0 && !field.Required {
			return nil, false, ""
		}
		return append([]string{}, in.chosen...), true, field.Check(in.chosen)
	case Choice:
		if len(in.chosen) == 0 {
			return nil, false, requiredMsg(field)
		}
		return in.chosen[0], true, ""
	case Number, Integer:
		text := strings.TrimSpace(in.text)
		if text == "" {
			return nil, false, requiredMsg(field)
		}
		n, msg := parseNumber(text, field.Kind)
		if msg != "" {
			return nil, false, msg
		}
		return n, true, field.Check(n)
	}
	if in.text == "" {
		return nil, false, requiredMsg(field)
	}
	return in.text, true, field.Check(in.text)
}

func requiredMsg(f *Field) string {
	if f.Required {
		return msgRequired
	}
	return ""
}

// parseNumber reads a typed number (JSON number syntax) as the JSON number
// to send, every digit kept: integers written out without fraction or
// exponent, other numbers as typed.
func parseNumber(text string, k Kind) (json.Number, string) {
	n, problem := parseExact(text)
	switch problem {
	case jsonnum.OK:
	case jsonnum.NotNumber:
		if k == Integer {
			return "", "Enter a whole number, like 42"
		}
		return "", "Enter a number, like 3.14"
	default:
		return "", "The number is " + string(problem)
	}
	if k != Integer {
		return json.Number(text), ""
	}
	if !n.Rat().IsInt() {
		return "", "Must be a whole number"
	}
	return json.Number(n.Rat().Num().String()), ""
}

// Set fills one field from a JSON value, as a script's answer file gives
// it: strings, numbers (json.Number or float64), booleans, or an array of
// strings for a multiple choice. A value of the wrong type, or a choice the
// field does not offer, is an error; the field is left as it was.
func (f *Form) Set(name string, v any) error {
	field, _ := f.at(name)
	if field == nil {
		return fmt.Errorf("%q is not a field of this form", name)
	}
	switch field.Kind {
	case Text:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s: must be text", name)
		}
		f.SetText(name, s)
	case Number, Integer:
		x, ok := exactValue(v)
		if !ok {
			return fmt.Errorf("%s: must be a number", name)
		}
		f.SetText(name, x.String())
	case Boolean:
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("%s: must be true or false", name)
		}
		f.SetChecked(name, b)
	case Choice, MultiChoice:
		list, ok := stringList(v)
		if s, one := v.(string); one && field.Kind == Choice {
			list, ok = []string{s}, true
		}
		if !ok || (field.Kind == Choice && len(list) != 1) {
			return fmt.Errorf("%s: %s", name, field.Check(v))
		}
		for _, s := range list {
			if !field.offers(s) {
				return fmt.Errorf("%s: %q is not one of the options", name, s)
			}
		}
		f.SetChosen(name, list...)
	}
	return nil
}
