package forms

import (
	"errors"
	"regexp"
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

// sdkPatterns are the patterns the TypeScript SDK's servers check an
// answer's email and uri against (its default validator, Ajv with
// ajv-formats 3 in full mode; MIT licence), which refuse values the JSON
// Schema library lets through, such as "a@b" or a URI with a space or a
// letter outside ASCII: an answer the form passed would fail the tool
// call. Ajv's case-insensitive ASCII classes are spelled out, as Go's
// (?i) would also fold in letters such as the Kelvin sign.
// TestFormatsAgreeWithTheSDK holds them against the SDK's own check.
var sdkPatterns = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		FormatEmail: regexp.MustCompile(`^[A-Za-z0-9!#$%&'*+/=?^_` + "`" + `{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_` + "`" + `{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$`),
		FormatURI:   regexp.MustCompile(`^(?:[A-Za-z][A-Za-z0-9+\-.]*:)(?:\/?\/(?:(?:[A-Za-z0-9\-._~!$&'()*+,;=:]|%[0-9A-Fa-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9A-Fa-f]{1,4}:){6}|::(?:[0-9A-Fa-f]{1,4}:){5}|(?:[0-9A-Fa-f]{1,4})?::(?:[0-9A-Fa-f]{1,4}:){4}|(?:(?:[0-9A-Fa-f]{1,4}:){0,1}[0-9A-Fa-f]{1,4})?::(?:[0-9A-Fa-f]{1,4}:){3}|(?:(?:[0-9A-Fa-f]{1,4}:){0,2}[0-9A-Fa-f]{1,4})?::(?:[0-9A-Fa-f]{1,4}:){2}|(?:(?:[0-9A-Fa-f]{1,4}:){0,3}[0-9A-Fa-f]{1,4})?::[0-9A-Fa-f]{1,4}:|(?:(?:[0-9A-Fa-f]{1,4}:){0,4}[0-9A-Fa-f]{1,4})?::)(?:[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9A-Fa-f]{1,4}:){0,5}[0-9A-Fa-f]{1,4})?::[0-9A-Fa-f]{1,4}|(?:(?:[0-9A-Fa-f]{1,4}:){0,6}[0-9A-Fa-f]{1,4})?::)|[Vv][0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*)(?::\d*)?(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)*|\/(?:(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)*)?|(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)*)(?:\?(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)?(?:#(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)?$`),
	}
})

// useFormats has c assert the spec's formats by the strictest rules a
// server is known to use: the JSON Schema library's, then the SDK's
// patterns.
func useFormats(c *jsonschema.Compiler) {
	c.AssertFormat()
	for name, pattern := range sdkPatterns() {
		library := librarySchemas()[name]
		c.RegisterFormat(&jsonschema.Format{Name: name, Validate: func(v any) error {
			s, ok := v.(string)
			if !ok {
				return nil
			}
			if err := library.Validate(s); err != nil {
				return err
			}
			if !pattern.MatchString(s) {
				return errNotLikeTheSDK
			}
			return nil
		}})
	}
}

var errNotLikeTheSDK = errors.New("refused by the pattern the TypeScript SDK's servers check")

// librarySchemas check each spec format by the JSON Schema library's own
// rules alone.
var librarySchemas = sync.OnceValue(func() map[string]*jsonschema.Schema {
	return compileFormats(func(c *jsonschema.Compiler) { c.AssertFormat() })
})

// formatSchemas holds one compiled schema per spec format, built once, by
// the rules Verify uses (useFormats): the form and the final check never
// disagree about a format.
var formatSchemas = sync.OnceValue(func() map[string]*jsonschema.Schema { return compileFormats(useFormats) })

// compileFormats compiles a schema of each spec format with a compiler
// set up by setUp.
func compileFormats(setUp func(*jsonschema.Compiler)) map[string]*jsonschema.Schema {
	out := make(map[string]*jsonschema.Schema, len(formatHints))
	for format := range formatHints {
		c := jsonschema.NewCompiler()
		setUp(c)
		url := "format-" + format + ".json"
		doc := map[string]any{"type": "string", "format": format}
		if err := c.AddResource(url, doc); err != nil {
			panic(err) // a fixed, valid document: cannot fail
		}
		out[format] = c.MustCompile(url)
	}
	return out
}

// validFormat reports whether s is a valid value of a spec format.
func validFormat(format, s string) bool {
	sch, ok := formatSchemas()[format]
	if !ok {
		return true
	}
	return sch.Validate(s) == nil
}
