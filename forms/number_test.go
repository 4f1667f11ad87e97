package forms

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonnum"
)

// TestBigIntegersExact follows an integer above 2^53 from the schema to the
// content: as default, as both bounds, as typed answer and in messages.
func TestBigIntegersExact(t *testing.T) {
	s, err := Parse([]byte(`{"type":"object","properties":{
		"n":{"type":"integer","minimum":9007199254740993,"maximum":9007199254740993,"default":9007199254740993},
		"big":{"type":"integer","default":123456789012345678901234567890}}}`))
	if err != nil {
		t.Fatal(err)
	}
	f := NewForm(s)
	res, errs, err := f.Accept()
	if err != nil || len(errs) > 0 {
		t.Fatalf("the default is not accepted: %v %v", errs, err)
	}
	if want := `{"n":9007199254740993,"big":123456789012345678901234567890}`; string(res.Content) != want {
		t.Errorf("sent %s, want %s", res.Content, want)
	}
	if got, want := s.Field("n").Placeholder(), "from 9007199254740993 to 9007199254740993"; got != want {
		t.Errorf("placeholder %q, want %q", got, want)
	}
	for text, want := range map[string]string{
		"9007199254740992":     "At least 9007199254740993",
		"9007199254740994":     "At most 9007199254740993",
		"9.007199254740993e15": "",
		"9007199254740993.5":   "Must be a whole number",
	} {
		f.SetText("n", text)
		if got := f.Error("n"); got != want {
			t.Errorf("%s: error %q, want %q", text, got, want)
		}
	}
	f.SetText("n", "9007199254740992")
	errs, err = s.Verify([]byte(`{"n":9007199254740992}`))
	if err != nil || errs["n"] != "At least 9007199254740993" {
		t.Errorf("Verify: %v %v", errs, err)
	}
	if err := f.Set("n", json.Number("9007199254740993")); err != nil || f.Text("n") != "9007199254740993" {
		t.Errorf("Set: %v, text %q", err, f.Text("n"))
	}
}

// TestNumbersNotRepresentable checks that lint names each number a form
// cannot keep exactly, at its path.
func TestNumbersNotRepresentable(t *testing.T) {
	tests := []struct {
		schema   string
		severity Severity
		path     string
		says     string
	}{
		{`{"type":"number","minimum":1e400}`, Fatal, "#/properties/x/minimum", "1e400 is too large"},
		{`{"type":"number","maximum":-1e400}`, Fatal, "#/properties/x/maximum", "-1e400 is too large"},
		{`{"type":"number","minimum":1e-400}`, Fatal, "#/properties/x/minimum", "1e-400 is too close to zero"},
		{`{"type":"number","minimum":1e-99999999}`, Fatal, "#/properties/x/minimum", "too close to zero"},
		{`{"type":"number","minimum":1` + strings.Repeat("0", 400) + `}`, Fatal, "#/properties/x/minimum", "too long"},
		{`{"type":"number","multipleOf":1e-2000000}`, Fatal, "#/properties/x/multipleOf", "too close to zero"},
		{`{"type":"number","x-step":[1e-400]}`, Fatal, "#/properties/x/x-step/0", "too close to zero"},
		{`{"type":"integer","minimum":1.5}`, Warning, "#/properties/x/minimum", "minimum 1.5 of a whole-number field is not a whole number"},
	}
	for _, tt := range tests {
		problems, err := Lint([]byte(`{"type":"object","properties":{"x":` + tt.schema + `}}`))
		if err != nil {
			t.Fatal(err)
		}
		if len(problems) != 1 || problems[0].Severity != tt.severity || problems[0].Path != tt.path || !strings.Contains(problems[0].Message, tt.says) {
			t.Errorf("%s: %v, want one %s at %s saying %q", tt.schema, problems, tt.severity, tt.path, tt.says)
		}
	}
}

func TestMinimumAboveMaximumExact(t *testing.T) {
	problems, _ := Lint([]byte(`{"type":"object","properties":{"x":{"type":"integer","minimum":9007199254740993,"maximum":9007199254740992}}}`))
	if len(problems) == 0 || problems[0].Message != "minimum 9007199254740993 is above maximum 9007199254740992: no number can fit" {
		t.Errorf("%v", problems)
	}
}

// TestVerifyMessagesExact checks the full validator's messages for bounds
// the form does not enforce itself: exact, never two equal-looking numbers.
func TestVerifyMessagesExact(t *testing.T) {
	s, err := Parse([]byte(`{"type":"object","properties":{
		"a":{"type":"integer","exclusiveMinimum":9007199254740993},
		"b":{"type":"number","exclusiveMaximum":0.1},
		"c":{"type":"number","multipleOf":0.25}}}`))
	if err != nil {
		t.Fatal(err)
	}
	errs, err := s.Verify([]byte(`{"a":9007199254740993,"b":0.1,"c":0.3}`))
	if err != nil {
		t.Fatal(err)
	}
	want := FieldErrors{"a": "More than 9007199254740993", "b": "Less than 0.1", "c": "Must be a multiple of 0.25"}
	for name, msg := range want {
		if errs[name] != msg {
			t.Errorf("%s: %q, want %q", name, errs[name], msg)
		}
	}
}

func TestRatText(t *testing.T) {
	for _, text := range []string{"9007199254740993", "-0.1", "0.25", "1e-300", "123456789.000000001"} {
		n, problem := parseExact(text)
		if problem != jsonnum.OK {
			t.Fatal(problem)
		}
		back, _ := parseExact(ratText(n.Rat()))
		if back == nil || back.Rat().Cmp(n.Rat()) != 0 {
			t.Errorf("ratText(%s) = %s, not the same number", text, ratText(n.Rat()))
		}
	}
	// More digits than the text has, and than the old search tried: still
	// decimal, never a fraction.
	n, _ := parseExact("1e-300")
	if got := ratText(n.Rat()); strings.Contains(got, "/") || !strings.HasSuffix(got, "1") || len(got) != 302 {
		t.Errorf("ratText(1e-300) = %.20s… (%d characters)", got, len(got))
	}
}

// TestVerifyHostileNumber checks that a number the validator library panics
// on, in a schema that skipped lint, is an error from Verify.
func TestVerifyHostileNumber(t *testing.T) {
	raw := []byte(`{"type":"object","properties":{"x":{"type":"number","multipleOf":1e-2000000}}}`)
	s := newSchema(raw, []Field{{Name: "x", Kind: Number}}, nil)
	if _, err := s.Verify([]byte(`{"x":1}`)); err == nil {
		t.Fatal("no error")
	}
}
