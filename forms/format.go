package forms

import (
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// formatHints tells the person what a format looks like.
var formatHints = map[string]string{
	FormatEmail:    "Enter an email address like name@example.com",
	FormatURI:      "Enter a full address with its scheme, like https://example.com",
	FormatDate:     "Enter a date like 2025-02-14",
	FormatDateTime: "Enter a date and time like 2025-02-14T09:30:00+01:00",
}

// formatSchemas holds one compiled schema per spec format, built once. Checking
// formats through the same JSON Schema library that Verify uses means the
// form and the final check never disagree about a format.
var formatSchemas = sync.OnceValue(func() map[string]*jsonschema.Schema {
	out := make(map[string]*jsonschema.Schema, len(formatHints))
	for format := range formatHints {
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		url := "format-" + format + ".json"
		doc := map[string]any{"type": "string", "format": format}
		if err := c.AddResource(url, doc); err != nil {
			panic(err) // a fixed, valid document: cannot fail
		}
		out[format] = c.MustCompile(url)
	}
	return out
})

// validFormat reports whether s is a valid value of a spec format.
func validFormat(format, s string) bool {
	sch, ok := formatSchemas()[format]
	if !ok {
		return true
	}
	return sch.Validate(s) == nil
}
