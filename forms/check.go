package forms

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// patternShown is how many characters of a pattern an error quotes.
const patternShown = 80

// Check returns what is wrong with v as this field's value, in plain words
// for the person filling in the form, or "" when v is fine. v is a value as
// encoding/json decodes it (json.Number or float64 for numbers; json.Number
// keeps every digit).
func (f *Field) Check(v any) string {
	switch f.Kind {
	case Text:
		s, ok := v.(string)
		if !ok {
			return "Must be text"
		}
		return f.checkText(s)
	case Number, Integer:
		x, ok := exactValue(v)
		if !ok {
			return "Must be a number"
		}
		return f.checkNumber(x.Rat())
	case Boolean:
		if _, ok := v.(bool); !ok {
			return "Must be true or false"
		}
	case Choice:
		s, ok := v.(string)
		if !ok || !f.offers(s) {
			return "Choose one of the options"
		}
	case MultiChoice:
		list, ok := stringList(v)
		if !ok {
			return "Must be a list of choices"
		}
		return f.checkChoices(list)
	}
	return ""
}

func (f *Field) checkText(s string) string {
	n := utf8.RuneCountInString(s)
	if f.MinLength != nil && n < *f.MinLength {
		return "At least " + plural(*f.MinLength, "character")
	}
	if f.MaxLength != nil && n > *f.MaxLength {
		return "At most " + plural(*f.MaxLength, "character")
	}
	if f.Format != "" && !validFormat(f.Format, s) {
		return formatHints[f.Format]
	}
	if f.Pattern != nil && !f.Pattern.MatchString(s) {
		// The server's pattern, shown safely and cut: it may be long.
		return "Must match the pattern " + untrusted.Text(f.Pattern.String()).Short(patternShown)
	}
	return ""
}

// checkNumber compares exactly, and names bounds as the server wrote them,
// so no message reads "got 9.007199254740992 × 10¹⁵, want 9.007199254740992 × 10¹⁵".
func (f *Field) checkNumber(x *big.Rat) string {
	if f.Kind == Integer && !x.IsInt() {
		return "Must be a whole number"
	}
	if f.Minimum != nil && x.Cmp(f.Minimum.Rat()) < 0 {
		return "At least " + f.Minimum.String()
	}
	if f.Maximum != nil && x.Cmp(f.Maximum.Rat()) > 0 {
		return "At most " + f.Maximum.String()
	}
	return ""
}

func (f *Field) checkChoices(list []string) string {
	for _, s := range list {
		if !f.offers(s) {
			return fmt.Sprintf("%q is not one of the options", s)
		}
	}
	if f.MinItems != nil && len(list) < *f.MinItems {
		return fmt.Sprintf("Choose at least %d", *f.MinItems)
	}
	if f.MaxItems != nil && len(list) > *f.MaxItems {
		return fmt.Sprintf("Choose at most %d", *f.MaxItems)
	}
	return ""
}

// offers reports whether value is one of the field's options.
func (f *Field) offers(value string) bool {
	return slices.ContainsFunc(f.Options, func(o Option) bool { return o.Value == value })
}

func stringList(v any) ([]string, bool) {
	switch x := v.(type) {
	case []string:
		return x, true
	case []any:
		out := make([]string, len(x))
		for i, it := range x {
			s, ok := it.(string)
			if !ok {
				return nil, false
			}
			out[i] = s
		}
		return out, true
	}
	return nil, false
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
