package serversview

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/textpos"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

// argsForm decides how a tool's arguments are entered. A schema that a spec
// form can show (flat, primitive fields) gets the form; anything else, such
// as nested objects or arrays of numbers, gets the JSON editor, and why
// says what stops the form.
func argsForm(t servers.Tool) (schema *forms.Schema, why string) {
	if t.InputSchema == nil {
		return nil, "The tool lists no inputSchema, so its arguments, if it takes any, are entered as JSON."
	}
	s, err := forms.Parse(t.InputSchema)
	if err == nil {
		return s, ""
	}
	var se *forms.SchemaError
	if !errors.As(err, &se) {
		return nil, "The inputSchema cannot be read: " + untrusted.Text(err.Error()).Line()
	}
	var lines []string
	for _, p := range se.Problems {
		if p.Severity == forms.Fatal {
			lines = append(lines, untrusted.Text(p.Path).Line()+": "+untrusted.Text(p.Message).Line())
		}
	}
	return nil, "A form cannot show this tool's arguments, so they are entered as JSON:\n" + strings.Join(lines, "\n")
}

// parseArgs reads arguments typed as JSON: one object, numbers kept exact.
func parseArgs(text string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("enter a JSON object, such as {}")
		}
		return nil, jsonProblem(text, err)
	}
	end := int(dec.InputOffset())
	if rest := text[end:]; strings.TrimSpace(rest) != "" {
		extra := end + len(rest) - len(strings.TrimLeft(rest, " \t\r\n"))
		return nil, fmt.Errorf("%s: there is more after the object", positionAt(text, extra))
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("the arguments must be a JSON object, in { }")
	}
	return obj, nil
}

// jsonProblem says where text stops being JSON.
func jsonProblem(text string, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s: %s", positionAt(text, int(se.Offset)-1), se.Error())
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("%s: %s", positionAt(text, int(te.Offset)), te.Error())
	}
	return err
}

// positionAt renders a byte offset of text as "line L, column C".
func positionAt(text string, off int) string {
	line, col := textpos.LineColumn([]byte(text), off)
	return fmt.Sprintf("line %d, column %d", line, col)
}

// argsJSON renders arguments for the JSON editor, indented.
func argsJSON(args map[string]any) string {
	if len(args) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(args); err != nil {
		return "{}"
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// fillForm puts arguments into a form, as when switching from the JSON
// editor back to the form. It fails, leaving the form partly filled, when
// a value does not fit its field or names no field, so nothing typed is
// dropped silently.
func fillForm(f *forms.Form, args map[string]any) error {
	for _, name := range slices.Sorted(maps.Keys(args)) {
		if f.Schema.Field(name) == nil {
			return fmt.Errorf("the form has no field %q", name)
		}
		if err := f.Set(name, args[name]); err != nil {
			return err // it names the field
		}
	}
	return nil
}
