package forms

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// verifier is the server's raw schema compiled by a full JSON Schema
// validator: a second opinion on content just before it is sent.
type verifier struct {
	schema  *jsonschema.Schema
	printer *message.Printer // renders the validator's messages
}

// compileVerifier compiles the schema as the server wrote it, with three
// changes of policy: "$schema" is dropped so nothing is ever fetched,
// additionalProperties is false because a form sends only its own fields, and
// keywords the metaschema rejects (a numeric title, say: Lint warned and the
// form ignores them) are dropped rather than making every answer unsendable.
func compileVerifier(raw []byte) (v *verifier, err error) {
	defer recoverValidator(&err)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("schema is not an object")
	}
	delete(obj, "$schema")
	obj["additionalProperties"] = false
	for attempt := 0; ; attempt++ {
		s, err := compile(obj)
		var se *jsonschema.SchemaValidationError
		var ve *jsonschema.ValidationError
		if err == nil || attempt == maxDrops || !errors.As(err, &se) || !errors.As(se.Err, &ve) || !dropRejected(obj, ve) {
			if err != nil {
				return nil, err
			}
			return &verifier{schema: s, printer: message.NewPrinter(language.English)}, nil
		}
	}
}

// maxDrops bounds the rounds of dropping rejected keywords.
const maxDrops = 16

func compile(doc map[string]any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	useFormats(c)
	c.UseLoader(noLoader{})
	c.UseRegexpEngine(lenientRegexp)
	const url = "requested-schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// dropRejected deletes, from doc, the keywords a metaschema error points at.
// It reports whether it deleted anything.
func dropRejected(doc map[string]any, ve *jsonschema.ValidationError) bool {
	if len(ve.Causes) > 0 {
		dropped := false
		for _, c := range ve.Causes {
			dropped = dropRejected(doc, c) || dropped
		}
		return dropped
	}
	loc := ve.InstanceLocation
	if len(loc) == 0 {
		return false
	}
	parent, ok := any(doc).(map[string]any)
	for _, tok := range loc[:len(loc)-1] {
		if !ok {
			return false
		}
		parent, ok = parent[tok].(map[string]any)
	}
	if !ok {
		return false
	}
	if _, present := parent[loc[len(loc)-1]]; !present {
		return false
	}
	delete(parent, loc[len(loc)-1])
	return true
}

// noLoader refuses every external reference: a form never goes online.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external reference %s is not loaded", url)
}

// lenientRegexp compiles patterns with Go's engine. A pattern Go cannot
// compile (an ECMAScript look-ahead, say) was already reported by Lint, so
// here it matches anything rather than blocking every answer.
func lenientRegexp(pattern string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return matchAll(pattern), nil
	}
	return re, nil
}

type matchAll string

func (m matchAll) String() string        { return string(m) }
func (matchAll) MatchString(string) bool { return true }

// recoverValidator turns a panic of the validator library into *err: a
// hostile schema has reached its bugs before (big.Rat refusing the exponent
// of 1e-2000000), and one schema must not crash the app.
func recoverValidator(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("the schema validator failed: %v", r)
	}
}

// Verify checks content, the exact JSON about to be sent, against the
// server's raw schema with a full JSON Schema validator. Field messages use
// the form's own words where it has them.
func (s *Schema) Verify(content []byte) (_ FieldErrors, err error) {
	defer recoverValidator(&err)
	v, err := s.verifier()
	if err != nil {
		return nil, fmt.Errorf("cannot check against the server's schema: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(content))
	if err != nil {
		return nil, err
	}
	errs := FieldErrors{}
	var ve *jsonschema.ValidationError
	if err := v.schema.Validate(inst); errors.As(err, &ve) {
		obj, _ := inst.(map[string]any)
		s.collect(v, ve, obj, errs)
	} else if err != nil {
		return nil, err
	}
	return errs, nil
}

// message says what a validator error means. Numeric bounds are written
// exactly: the validator's own messages round them to float64, and showed
// "got 9.007199254740992 × 10¹⁵, want 9.007199254740992 × 10¹⁵".
func (v *verifier) message(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Minimum:
		return "At least " + ratText(k.Want)
	case *kind.Maximum:
		return "At most " + ratText(k.Want)
	case *kind.ExclusiveMinimum:
		return "More than " + ratText(k.Want)
	case *kind.ExclusiveMaximum:
		return "Less than " + ratText(k.Want)
	case *kind.MultipleOf:
		return "Must be a multiple of " + ratText(k.Want)
	}
	return k.LocalizedString(v.printer)
}

// collect walks the validator's error tree and files each leaf under a field.
func (s *Schema) collect(v *verifier, ve *jsonschema.ValidationError, content map[string]any, errs FieldErrors) {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			s.collect(v, c, content, errs)
		}
		return
	}
	switch k := ve.ErrorKind.(type) {
	case *kind.Required:
		for _, name := range k.Missing {
			errs[name] = msgRequired
		}
		return
	case *kind.AdditionalProperties:
		for _, name := range k.Properties {
			errs[name] = msgUnknown
		}
		return
	}
	if len(ve.InstanceLocation) == 0 {
		errs[""] = v.message(ve.ErrorKind)
		return
	}
	name := ve.InstanceLocation[0]
	if _, seen := errs[name]; seen {
		return
	}
	msg := v.message(ve.ErrorKind)
	if f := s.Field(name); f != nil {
		if own := f.Check(content[name]); own != "" {
			msg = own
		}
	}
	errs[name] = msg
}
