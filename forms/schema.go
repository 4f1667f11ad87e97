package forms

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// Kind is what a field asks for, which decides its widget and its JSON type.
type Kind int

const (
	Text        Kind = iota // a JSON string, possibly with a format
	Number                  // a JSON number
	Integer                 // a JSON number without a fraction
	Boolean                 // true or false
	Choice                  // one string out of Options
	MultiChoice             // an array of strings out of Options
)

func (k Kind) String() string {
	return [...]string{"text", "number", "integer", "boolean", "choice", "multi-choice"}[k]
}

// String formats the spec defines for text fields.
const (
	FormatEmail    = "email"
	FormatURI      = "uri"
	FormatDate     = "date"
	FormatDateTime = "date-time"
)

// Option is one choice of a Choice or MultiChoice field.
type Option struct {
	Value string         // what is sent
	Title untrusted.Text // what is shown; equals Value for untitled enums
}

// Field is one property of a requested schema, in the order the server wrote it.
type Field struct {
	Name        string
	Kind        Kind
	Title       untrusted.Text
	Description untrusted.Text
	Required    bool

	Format               string // Text only: one of the Format constants, or "" (unknown formats are dropped with a warning)
	MinLength, MaxLength *int   // Text only, in characters
	Pattern              *regexp.Regexp

	Minimum, Maximum *ExactNumber // Number and Integer, exactly as written

	Options            []Option // Choice and MultiChoice
	MinItems, MaxItems *int     // MultiChoice

	// Default is the server's default as JSON decodes it with UseNumber:
	// string, json.Number (every digit kept), bool or []string; nil when
	// there is none.
	Default any

	// apart tells the field from others whose labels read alike (" (name)",
	// " (field 2)"), which Label adds: two fields titled "Password" look
	// like one question asked twice.
	apart untrusted.Text
}

// longText is the maxLength from which a text field takes several lines.
const longText = 200

// MultiLine reports whether a text field takes several lines.
func (f *Field) MultiLine() bool { return f.MaxLength != nil && *f.MaxLength > longText }

// TriState reports whether a boolean field may stay unanswered: it is
// optional and has no default. Such a field starts "not set" and is sent
// only once the person sets it, so that an answer never holds a choice
// they did not make. A required boolean, or one with a default, starts
// false or at its default and is always sent.
func (f *Field) TriState() bool { return f.Kind == Boolean && !f.Required && f.Default == nil }

// MustFill reports whether the form is held back until the person fills
// the field in: a required one, but not a boolean, which is sent ticked or
// not, so marking it required would read as "must be ticked".
func (f *Field) MustFill() bool { return f.Required && f.Kind != Boolean }

// Label is what the person sees as the field's name: its title, or else
// its property name, both the server's words; where another field's reads
// alike, with what tells them apart.
func (f *Field) Label() untrusted.Text {
	if f.Title != "" {
		return f.Title + f.apart
	}
	return untrusted.Text(f.Name) + f.apart
}

// tellApart marks the fields whose labels read alike (case, look-alike
// letters, invisible characters and punctuation aside) with their
// property names, or with their places where the names read alike too.
func tellApart(fields []Field) {
	key := func(s string) string { return strings.Join(splitWords(s), " ") }
	byLabel := map[string][]int{}
	for i := range fields {
		k := key(string(fields[i].Label()))
		byLabel[k] = append(byLabel[k], i)
	}
	for _, alike := range byLabel {
		if len(alike) < 2 {
			continue
		}
		names := map[string]int{}
		for _, i := range alike {
			names[key(fields[i].Name)]++
		}
		for _, i := range alike {
			f := &fields[i]
			if f.Title != "" && names[key(f.Name)] == 1 {
				f.apart = " (" + untrusted.Text(f.Name) + ")"
			} else {
				f.apart = untrusted.Text(fmt.Sprintf(" (field %d)", i+1))
			}
		}
	}
}

// Schema is a parsed requestedSchema: the fields to show and the problems that
// did not stop it from being shown.
type Schema struct {
	Fields   []Field
	Warnings []Problem

	index    map[string]int // field name → position in Fields
	verifier func() (*verifier, error)
}

// Field returns the field named name, or nil.
func (s *Schema) Field(name string) *Field {
	if i, ok := s.index[name]; ok {
		return &s.Fields[i]
	}
	return nil
}

func newSchema(raw []byte, fields []Field, warnings []Problem) *Schema {
	tellApart(fields)
	s := &Schema{Fields: fields, Warnings: warnings, index: make(map[string]int, len(fields))}
	for i, f := range fields {
		s.index[f.Name] = i
	}
	s.verifier = sync.OnceValues(func() (*verifier, error) { return compileVerifier(raw) })
	return s
}
