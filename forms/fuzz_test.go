package forms

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// addCorpus seeds a fuzz target with every schema of the test corpus.
func addCorpus(f *testing.F, add func(raw []byte)) {
	files, _ := filepath.Glob(filepath.Join("testdata", "schemas", "*", "*.json"))
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		add(raw)
	}
}

// FuzzParse checks that no schema makes the parser panic, that Lint and
// Parse agree, and that a parsed schema always yields a form whose content
// is JSON the full validator can read.
func FuzzParse(f *testing.F) {
	addCorpus(f, func(raw []byte) { f.Add(raw) })
	f.Fuzz(func(t *testing.T, raw []byte) {
		problems, lintErr := Lint(raw)
		s, err := Parse(raw)
		if (lintErr == nil) != (err == nil || !isSyntax(err)) {
			t.Fatalf("Lint error %v, Parse error %v", lintErr, err)
		}
		if err != nil {
			return
		}
		if hasFatal(problems) {
			t.Fatal("Parse accepted a schema Lint calls fatal")
		}
		content := NewForm(s).Content()
		if !json.Valid(content) {
			t.Fatalf("content is not JSON: %s", content)
		}
		if _, err := s.ValidateJSON(content); err != nil {
			t.Fatalf("own content unreadable: %v", err)
		}
	})
}

// FuzzValidate checks content validation with arbitrary content against
// every schema of the corpus.
func FuzzValidate(f *testing.F) {
	var schemas [][]byte
	addCorpus(f, func(raw []byte) {
		if _, err := Parse(raw); err == nil {
			schemas = append(schemas, raw)
		}
	})
	f.Add(uint8(0), []byte(`{"name":"x"}`))
	f.Add(uint8(1), []byte(`{"a":[1,2,{"b":null}],"c":1e400}`))
	f.Add(uint8(2), []byte(`[]`))
	f.Fuzz(func(t *testing.T, which uint8, content []byte) {
		s, err := Parse(schemas[int(which)%len(schemas)])
		if err != nil {
			t.Fatal(err)
		}
		errs, err := s.ValidateJSON(content)
		if err != nil {
			return
		}
		for name, msg := range errs {
			if msg == "" {
				t.Fatalf("field %q invalid without a message", name)
			}
		}
		if _, err := s.Verify(content); err != nil && json.Valid(content) {
			t.Fatalf("Verify failed on valid JSON: %v", err)
		}
	})
}

func isSyntax(err error) bool {
	_, ok := err.(*SyntaxError)
	return ok
}
