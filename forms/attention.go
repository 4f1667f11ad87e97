package forms

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// NotReady names at most namedMax fields, each cut to nameMax characters:
// the rest are counted.
const (
	namedMax = 5
	nameMax  = 40
)

// NeedAttention says how many fields need attention, in plain words:
// "1 field needs attention", "3 fields need attention".
func NeedAttention(n int) string {
	if n == 1 {
		return "1 field needs attention"
	}
	return fmt.Sprintf("%d fields need attention", n)
}

// NotReady says why Accept would refuse the form as it is, naming the
// fields by their titles in form order, each with its whole error: "Not
// ready: 2 fields need attention — Start date: Required; Email: Enter an
// email address like name@example.com". It is "" when Accept would send.
// The form cuts an error to the room of its field's hint; here it reads
// whole.
func (f *Form) NotReady() string {
	errs, err := f.Problems()
	switch {
	case err != nil:
		return "Not ready: " + untrusted.Text(err.Error()).Line()
	case len(errs) == 0:
		return ""
	}
	var names []string
	for _, field := range f.Schema.Fields {
		if msg, bad := errs[field.Name]; bad {
			names = append(names, field.Label().Headline(nameMax)+": "+untrusted.Text(msg).Line())
		}
	}
	if len(names) == 0 { // only problems of the whole form, or of names it has no field for
		var whole []string
		for _, k := range slices.Sorted(maps.Keys(errs)) {
			msg := untrusted.Text(errs[k]).Line()
			if k != "" {
				msg = untrusted.Text(k).Quote() + ", which the form has no field for: " + msg
			}
			whole = append(whole, msg)
		}
		return "Not ready: " + strings.Join(whole, "; ")
	}
	summary := "Not ready: " + NeedAttention(len(names)) + " — "
	if len(names) > namedMax {
		names = append(names[:namedMax], fmt.Sprintf("and %d more", len(names)-namedMax))
	}
	return summary + strings.Join(names, "; ")
}

// NotSent names the booleans the person has not set, which the content
// leaves out, in form order: "Not set, so not sent: Newsletter, Beta".
// It is "" when every boolean holds an answer.
func (f *Form) NotSent() string {
	var names []string
	for i, field := range f.Schema.Fields {
		if field.Kind == Boolean && f.inputs[i].unset {
			names = append(names, field.Label().Headline(nameMax))
		}
	}
	if len(names) == 0 {
		return ""
	}
	if len(names) > namedMax {
		names = append(names[:namedMax], fmt.Sprintf("and %d more", len(names)-namedMax))
	}
	return "Not set, so not sent: " + strings.Join(names, ", ")
}
