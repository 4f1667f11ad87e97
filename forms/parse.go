package forms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/agnivade/levenshtein"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonnum"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// Parse reads a requestedSchema. It returns a *SyntaxError when raw is not
// JSON and a *SchemaError when the schema has fatal problems; otherwise the
// schema, whose Warnings the form should show.
func Parse(raw []byte) (*Schema, error) {
	s, problems, err := analyze(raw)
	if err != nil {
		return nil, err
	}
	if hasFatal(problems) {
		return nil, &SchemaError{Problems: problems}
	}
	return s, nil
}

// secretProblem is Lint's warning of a field that seems to ask for a
// secret.
const secretProblem = "it seems to ask for a secret (a password, key, token or card number): " +
	"the spec says servers must not ask for sensitive information in a form; use URL mode"

// Lint returns every problem of a requestedSchema, fatal ones and warnings,
// in document order, then a warning for each field that seems to ask for a
// secret (Field.Secret), which a form warns of beside the field rather than
// above it with the others. The error is a *SyntaxError when raw is not
// JSON.
func Lint(raw []byte) ([]Problem, error) {
	s, problems, err := analyze(raw)
	if s == nil {
		return problems, err
	}
	for _, f := range s.Fields {
		if f.Secret() {
			problems = append(problems, Problem{Path: "#/properties/" + escapePointer(f.Name), Severity: Warning, Message: secretProblem})
		}
	}
	return problems, nil
}

func analyze(raw []byte) (*Schema, []Problem, error) {
	root, decodeProblems, err := decodeTree(raw)
	if err != nil {
		return nil, nil, err
	}
	l := &linter{}
	for _, p := range decodeProblems {
		l.fatal(p.path, "%s", p.msg)
	}
	// A schema over the limits is refused before it is read field by
	// field: its size alone is the problem, and reading it would cost what
	// the limits are there to bound.
	if l.limits("#", root) {
		return nil, l.problems, nil
	}
	fields := l.root(root)
	if hasFatal(l.problems) {
		return nil, l.problems, nil
	}
	return newSchema(raw, fields, l.problems), l.problems, nil
}

// linter walks the decoded schema, building fields and noting problems.
type linter struct {
	problems []Problem
}

func (l *linter) fatal(path, format string, args ...any) {
	l.problems = append(l.problems, Problem{Path: path, Severity: Fatal, Message: fmt.Sprintf(format, args...)})
}

func (l *linter) warn(path, format string, args ...any) {
	l.problems = append(l.problems, Problem{Path: path, Severity: Warning, Message: fmt.Sprintf(format, args...)})
}

func (l *linter) root(n *node) []Field {
	if n.kind != objectNode {
		l.fatal("#", "the schema must be a JSON object, not %s", article(n.kind))
		return nil
	}
	var fields []Field
	for _, m := range n.members {
		path := "#/" + escapePointer(m.key)
		switch m.key {
		case "type":
			if m.value.kind != stringNode || m.value.text != "object" {
				l.fatal(path, `the schema's type must be "object"`)
			}
		case "properties":
			fields = l.properties(path, m.value)
		case "required":
		case "$schema", "title", "description":
			l.wantString(path, m.value)
		default:
			l.outsideSpec(path, m.key)
		}
	}
	if n.get("type") == nil {
		l.fatal("#", `the schema needs "type": "object"`)
	}
	if n.get("properties") == nil {
		l.fatal("#", `the schema needs "properties", an object naming the fields`)
	}
	if req := n.get("required"); req != nil {
		l.required("#/required", req, fields, n.get("properties"))
	}
	return fields
}

func (l *linter) properties(path string, n *node) []Field {
	if n.kind != objectNode {
		l.fatal(path, "properties must be an object mapping field names to field schemas, not %s", article(n.kind))
		return nil
	}
	fields := make([]Field, 0, len(n.members))
	for _, m := range n.members {
		if f, ok := l.field(path+"/"+escapePointer(m.key), m.key, m.value); ok {
			fields = append(fields, f)
		}
	}
	return fields
}

// required marks the fields n names required. A name of a property that
// is no field (its own fatal says why) is not reported again.
func (l *linter) required(path string, n *node, fields []Field, props *node) {
	if n.kind != arrayNode {
		l.fatal(path, "required must be an array of field names, not %s", article(n.kind))
		return
	}
	// An index, not a search per name: a long required list against many
	// properties would otherwise cost their product.
	index := make(map[string]int, len(fields))
	for j := range fields {
		index[fields[j].Name] = j
	}
	declared := map[string]bool{}
	if props != nil && props.kind == objectNode {
		for _, m := range props.members {
			declared[m.key] = true
		}
	}
	for i, it := range n.items {
		p := path + "/" + strconv.Itoa(i)
		if it.kind != stringNode {
			l.fatal(p, "required must list field names as strings, not %s", article(it.kind))
			continue
		}
		j, found := index[it.text]
		if !found {
			if !declared[it.text] {
				l.fatal(p, "required names %q, which is not one of the properties", it.text)
			}
			continue
		}
		fields[j].Required = true
	}
}

// checkedLater ends warnings about keywords the form does not enforce itself:
// Verify, the full JSON Schema check before sending, still does.
const checkedLater = "the answer is still checked against it before it is sent"

// keywords lists, for each kind, the keywords the spec defines for it.
var keywords = map[Kind][]string{
	Text:        {"minLength", "maxLength", "format"},
	Number:      {"minimum", "maximum"},
	Integer:     {"minimum", "maximum"},
	Boolean:     {},
	Choice:      {"enum", "enumNames", "oneOf"},
	MultiChoice: {"items", "minItems", "maxItems"},
}

func (l *linter) field(path, name string, n *node) (Field, bool) {
	f := Field{Name: name}
	if n.kind != objectNode {
		l.fatal(path, "a field must be a schema object, not %s", article(n.kind))
		return f, false
	}
	var ok bool
	if f.Kind, ok = l.kind(path, n); !ok {
		return f, false
	}
	before := len(l.problems)
	var names *node // enumNames is applied once the options are known
	for _, m := range n.members {
		p := path + "/" + escapePointer(m.key)
		switch m.key {
		case "type", "default":
		case "title":
			f.Title = untrusted.Text(l.wantString(p, m.value))
		case "description":
			f.Description = untrusted.Text(l.wantString(p, m.value))
		case "minLength", "maxLength", "minItems", "maxItems":
			if l.applies(p, m.key, f.Kind) {
				l.count(p, m.value, f.bound(m.key))
			}
		case "minimum", "maximum":
			if l.applies(p, m.key, f.Kind) {
				l.number(p, m.key, m.value, f.Kind, f.limit(m.key))
			}
		case "format":
			if l.applies(p, m.key, f.Kind) {
				f.Format = l.format(p, m.value)
			}
		case "pattern":
			f.Pattern = l.pattern(p, m.value, f.Kind)
		case "enum", "oneOf":
			if !l.applies(p, m.key, f.Kind) {
				break
			}
			if f.Options != nil {
				l.warn(p, "%s is ignored: the field already lists its choices", m.key)
				break
			}
			f.Options = l.options(p, m.key, m.value)
		case "enumNames":
			if l.applies(p, m.key, f.Kind) {
				names = m.value
			}
		case "items":
			if l.applies(p, m.key, f.Kind) {
				f.Options = l.items(p, m.value)
			}
		default:
			l.outsideSpec(p, m.key)
		}
	}
	if hasFatal(l.problems[before:]) {
		return f, false
	}
	if names != nil {
		l.enumNames(path+"/enumNames", names, f.Options)
	}
	l.ranges(path, &f)
	if d := n.get("default"); d != nil {
		f.Default = l.fieldDefault(path+"/default", &f, d)
	}
	return f, true
}

// kind decides the field's kind from "type" and the presence of choices.
func (l *linter) kind(path string, n *node) (Kind, bool) {
	t := n.get("type")
	if t == nil {
		l.fatal(path, `the field needs a "type": string, number, integer, boolean or array`)
		return 0, false
	}
	if t.kind != stringNode {
		l.fatal(path+"/type", "type must be one string (string, number, integer, boolean or array), not %s", article(t.kind))
		return 0, false
	}
	switch t.text {
	case "string":
		if n.get("enum") != nil || n.get("oneOf") != nil {
			return Choice, true
		}
		return Text, true
	case "number":
		return Number, true
	case "integer":
		return Integer, true
	case "boolean":
		return Boolean, true
	case "array":
		if n.get("items") == nil {
			l.fatal(path, "an array field must offer choices in items (items.enum or items.anyOf)")
			return 0, false
		}
		return MultiChoice, true
	case "object":
		l.fatal(path+"/type", "nested objects are not allowed: a form has only top-level fields")
	case "null":
		l.fatal(path+"/type", "a null field asks for nothing; use string, number, integer, boolean or array")
	default:
		l.fatal(path+"/type", "unknown type %q: use string, number, integer, boolean or array", t.text)
	}
	return 0, false
}

// applies reports whether keyword belongs to kind, warning when it does not.
func (l *linter) applies(path, keyword string, k Kind) bool {
	for _, kw := range keywords[k] {
		if kw == keyword {
			return true
		}
	}
	l.warn(path, "%s does not apply to a %s field and is ignored", keyword, k)
	return false
}

func (l *linter) outsideSpec(path, keyword string) {
	l.warn(path, "%q is not part of the elicitation spec: the form does not use it, but %s", keyword, checkedLater)
}

func (l *linter) wantString(path string, n *node) string {
	if n.kind != stringNode {
		l.warn(path, "must be a string, not %s; it is ignored", article(n.kind))
		return ""
	}
	return n.text
}

// bound returns where a count keyword of f is stored.
func (f *Field) bound(keyword string) **int {
	switch keyword {
	case "minLength":
		return &f.MinLength
	case "maxLength":
		return &f.MaxLength
	case "minItems":
		return &f.MinItems
	}
	return &f.MaxItems
}

// limit returns where a numeric limit of f is stored.
func (f *Field) limit(keyword string) **ExactNumber {
	if keyword == "minimum" {
		return &f.Minimum
	}
	return &f.Maximum
}

func (l *linter) count(path string, n *node, dst **int) {
	v, ok := numberValue(n)
	if !ok || !v.Rat().IsInt() || v.Rat().Sign() < 0 || v.Rat().Cmp(big.NewRat(math.MaxInt32, 1)) > 0 {
		l.fatal(path, "must be a whole number of 0 or more, not %s", describe(n))
		return
	}
	c := int(v.Rat().Num().Int64())
	*dst = &c
}

func (l *linter) number(path, keyword string, n *node, k Kind, dst **ExactNumber) {
	v, ok := numberValue(n) // limits refused numbers out of range
	if !ok {
		l.fatal(path, "must be a number, not %s", describe(n))
		return
	}
	if k == Integer && !v.Rat().IsInt() {
		l.warn(path, "%s %s of a whole-number field is not a whole number itself; write the whole number it means", keyword, v)
	}
	*dst = v
}

func (l *linter) format(path string, n *node) string {
	s := l.wantString(path, n)
	switch s {
	case FormatEmail, FormatURI, FormatDate, FormatDateTime:
		return s
	case "":
		return ""
	}
	// Verify checks the formats JSON Schema defines (hostname, uuid…);
	// one it does not, such as a slip for a spec format, nothing checks.
	msg := fmt.Sprintf("unknown format %q: the spec defines email, uri, date and date-time; the field takes plain text, but %s if JSON Schema defines the format", s, checkedLater)
	if near := nearFormat(s); near != "" {
		msg += fmt.Sprintf("; did you mean %q?", near)
	}
	l.warn(path, "%s", msg)
	return ""
}

// nearFormat is the spec's format that s is a slip for ("emial",
// "date_time", "DateTime"), or "".
func nearFormat(s string) string {
	squash := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) {
				return unicode.ToLower(r)
			}
			return -1
		}, s)
	}
	for _, f := range []string{FormatEmail, FormatURI, FormatDate, FormatDateTime} {
		if squash(s) == squash(f) || len(f) > 3 && levenshtein.ComputeDistance(strings.ToLower(s), f) <= 2 {
			return f
		}
	}
	return ""
}

func (l *linter) pattern(path string, n *node, k Kind) *regexp.Regexp {
	if k != Text || n.kind != stringNode {
		l.outsideSpec(path, "pattern")
		return nil
	}
	l.warn(path, "pattern is not part of the elicitation spec: Elicit Desk checks it, other clients may not")
	re, err := regexp.Compile(n.text)
	if err != nil {
		l.warn(path, "pattern %q cannot be checked here: %v", n.text, err)
		return nil
	}
	return re
}

// options reads enum (untitled) or oneOf (titled) choices.
func (l *linter) options(path, keyword string, n *node) []Option {
	if n.kind != arrayNode {
		l.fatal(path, "%s must be an array of choices, not %s", keyword, article(n.kind))
		return nil
	}
	if len(n.items) == 0 {
		l.fatal(path, "%s offers no choices", keyword)
		return nil
	}
	opts := make([]Option, 0, len(n.items))
	seen := make(map[string]bool)
	for i, it := range n.items {
		p := path + "/" + strconv.Itoa(i)
		var o Option
		var ok bool
		if keyword == "enum" {
			o, ok = l.enumValue(p, it)
		} else {
			o, ok = l.titledOption(p, it)
		}
		if !ok {
			continue
		}
		if seen[o.Value] {
			l.warn(p, "the choice %q is listed more than once", o.Value)
			continue
		}
		seen[o.Value] = true
		opts = append(opts, o)
	}
	return opts
}

func (l *linter) enumValue(path string, n *node) (Option, bool) {
	if n.kind != stringNode {
		l.fatal(path, "choices must be strings, not %s", describe(n))
		return Option{}, false
	}
	return Option{Value: n.text, Title: untrusted.Text(n.text)}, true
}

func (l *linter) titledOption(path string, n *node) (Option, bool) {
	if n.kind != objectNode {
		l.fatal(path, "a titled choice must be an object with const and title, not %s", article(n.kind))
		return Option{}, false
	}
	c := n.get("const")
	if c == nil {
		l.fatal(path, "a titled choice needs const, the value to send")
		return Option{}, false
	}
	if c.kind != stringNode {
		l.fatal(path+"/const", "const must be a string, not %s", describe(c))
		return Option{}, false
	}
	o := Option{Value: c.text, Title: untrusted.Text(c.text)}
	switch t := n.get("title"); {
	case t == nil:
		l.warn(path, "the choice %q has no title; its value is shown", c.text)
	case t.kind != stringNode:
		l.warn(path+"/title", "must be a string, not %s; the value is shown", article(t.kind))
	default:
		o.Title = untrusted.Text(t.text)
	}
	for _, m := range n.members {
		if m.key != "const" && m.key != "title" {
			l.outsideSpec(path+"/"+escapePointer(m.key), m.key)
		}
	}
	return o, true
}

// enumNames applies legacy display names to untitled enum options.
func (l *linter) enumNames(path string, n *node, opts []Option) {
	if n.kind != arrayNode {
		l.warn(path, "enumNames must be an array of strings; it is ignored")
		return
	}
	if len(n.items) != len(opts) {
		l.warn(path, "enumNames has %d names for %d choices; names are used where they line up", len(n.items), len(opts))
	}
	for i, it := range n.items {
		if i >= len(opts) {
			break
		}
		if it.kind != stringNode {
			l.warn(path+"/"+strconv.Itoa(i), "must be a string, not %s; the value is shown", article(it.kind))
			continue
		}
		opts[i].Title = untrusted.Text(it.text)
	}
}

// items reads the choices of a multi-select field.
func (l *linter) items(path string, n *node) []Option {
	if n.kind != objectNode {
		l.fatal(path, "items must be an object offering choices (enum or anyOf), not %s", article(n.kind))
		return nil
	}
	enum, anyOf := n.get("enum"), n.get("anyOf")
	if enum == nil && anyOf == nil {
		l.fatal(path, "an array field must offer choices: items needs enum or anyOf")
		return nil
	}
	var opts []Option
	for _, m := range n.members {
		p := path + "/" + escapePointer(m.key)
		switch m.key {
		case "type":
			if m.value.kind != stringNode || m.value.text != "string" {
				l.fatal(p, `choices are strings: items.type must be "string"`)
			}
		case "enum":
			opts = l.options(p, "enum", m.value)
		case "anyOf":
			if enum == nil {
				opts = l.options(p, "anyOf", m.value)
			} else {
				l.warn(p, "anyOf is ignored because items also has enum")
			}
		default:
			l.outsideSpec(p, m.key)
		}
	}
	return opts
}

// ranges checks that lower bounds do not exceed upper bounds.
func (l *linter) ranges(path string, f *Field) {
	if f.MinLength != nil && f.MaxLength != nil && *f.MinLength > *f.MaxLength {
		l.fatal(path+"/minLength", "minLength %d is above maxLength %d: no text can fit", *f.MinLength, *f.MaxLength)
	}
	if f.Minimum != nil && f.Maximum != nil && f.Minimum.Rat().Cmp(f.Maximum.Rat()) > 0 {
		l.fatal(path+"/minimum", "minimum %s is above maximum %s: no number can fit", f.Minimum, f.Maximum)
	}
	if f.MinItems != nil && f.MaxItems != nil && *f.MinItems > *f.MaxItems {
		l.fatal(path+"/minItems", "minItems %d is above maxItems %d: no selection can fit", *f.MinItems, *f.MaxItems)
	}
	if f.Kind == MultiChoice && f.MinItems != nil && *f.MinItems > len(f.Options) {
		l.fatal(path+"/minItems", "minItems %d is above the %s to choose from: no selection can fit", *f.MinItems, plural(len(f.Options), "option"))
	}
	if f.Kind == Integer && f.Minimum != nil && f.Maximum != nil && new(big.Rat).SetInt(ceilRat(f.Minimum.Rat())).Cmp(f.Maximum.Rat()) > 0 {
		l.fatal(path+"/minimum", "no whole number lies between %s and %s", f.Minimum, f.Maximum)
	}
}

// fieldDefault converts the default and checks it against the field's own
// constraints. A bad default is a warning: the form still shows it, with its error.
func (l *linter) fieldDefault(path string, f *Field, n *node) any {
	v := n.value()
	if msg := f.Check(v); msg != "" {
		shown := describe(n)
		if n.kind == arrayNode {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false) // "<" as written: this is no HTML
			if enc.Encode(v) == nil {
				shown = truncate(strings.TrimSpace(b.String()), 40)
			}
		}
		l.warn(path, "the default %s breaks the field's own rules: %s", shown, msg)
	}
	switch f.Kind {
	case Text, Choice:
		if s, ok := v.(string); ok {
			return s
		}
	case Number, Integer:
		if _, ok := numberValue(n); ok {
			return n.number
		}
	case Boolean:
		if b, ok := v.(bool); ok {
			return b
		}
	case MultiChoice:
		if list, ok := stringList(v); ok {
			return list
		}
	}
	return nil
}

// numberValue returns n exactly, when it is a number the form can keep.
func numberValue(n *node) (*ExactNumber, bool) {
	if n.kind != numberNode {
		return nil, false
	}
	v, problem := parseExact(n.number.String())
	return v, problem == jsonnum.OK
}

func article(k jsonKind) string {
	switch k {
	case arrayNode, objectNode:
		return "an " + k.String()
	case nullNode:
		return "null"
	}
	return "a " + k.String()
}

// describe shows a short value in a message: strings quoted, long ones cut.
func describe(n *node) string {
	switch n.kind {
	case stringNode:
		return strconv.Quote(truncate(n.text, 40))
	case numberNode:
		return truncate(string(n.number), 40)
	case boolNode:
		return strconv.FormatBool(n.boolean)
	}
	return article(n.kind)
}

func truncate(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max]) + "…"
}
