package forms

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func mustParse(t testing.TB, raw string) *Schema {
	t.Helper()
	s, err := Parse([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func everything(t testing.TB) *Schema {
	return mustParse(t, string(readFile(t, filepath.Join("testdata", "schemas", "ok", "everything-trigger-elicitation-request.json"))))
}

func TestParseKeepsOrder(t *testing.T) {
	s := everything(t)
	var names []string
	for _, f := range s.Fields {
		names = append(names, f.Name)
	}
	want := "name check firstLine email homepage birthdate integer number untitledSingleSelectEnum untitledMultipleSelectEnum titledSingleSelectEnum titledMultipleSelectEnum legacyTitledEnum"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("field order\n got %s\nwant %s", got, want)
	}
}

func TestParseKinds(t *testing.T) {
	s := everything(t)
	tests := []struct {
		name    string
		kind    Kind
		format  string
		options string // titles, joined by |
	}{
		{"name", Text, "", ""},
		{"check", Boolean, "", ""},
		{"email", Text, FormatEmail, ""},
		{"homepage", Text, FormatURI, ""},
		{"birthdate", Text, FormatDate, ""},
		{"integer", Integer, "", ""},
		{"number", Number, "", ""},
		{"untitledSingleSelectEnum", Choice, "", "Monica|Rachel|Joey|Chandler|Ross|Phoebe"},
		{"untitledMultipleSelectEnum", MultiChoice, "", "Guitar|Piano|Violin|Drums|Bass"},
		{"titledSingleSelectEnum", Choice, "", "Superman|Green Lantern|Wonder Woman"},
		{"titledMultipleSelectEnum", MultiChoice, "", "Tuna|Salmon|Trout"},
		{"legacyTitledEnum", Choice, "", "Cats|Dogs|Birds|Fish|Reptiles"},
	}
	for _, tt := range tests {
		f := s.Field(tt.name)
		if f == nil {
			t.Fatalf("no field %s", tt.name)
		}
		var titles []string
		for _, o := range f.Options {
			titles = append(titles, string(o.Title))
		}
		if f.Kind != tt.kind || f.Format != tt.format || strings.Join(titles, "|") != tt.options {
			t.Errorf("%s: got %v %q %v, want %v %q %s", tt.name, f.Kind, f.Format, titles, tt.kind, tt.format, tt.options)
		}
	}
	if !s.Field("name").Required || s.Field("email").Required {
		t.Error("required flags wrong")
	}
}

func TestFormDefaultsAndContent(t *testing.T) {
	f := NewForm(everything(t))
	// Only name is required and it has no default.
	if errs := f.Errors(); len(errs) != 1 || errs["name"] != "Required" {
		t.Fatalf("errors of the untouched form: %v", errs)
	}
	f.SetText("name", "Ada Lovelace")
	// check is an optional boolean without a default: not set, so not sent.
	want := `{"name":"Ada Lovelace","firstLine":"It was a dark and stormy night.","integer":42,"number":3.14,` +
		`"untitledSingleSelectEnum":"Monica","untitledMultipleSelectEnum":["Guitar"],"titledSingleSelectEnum":"hero-1",` +
		`"titledMultipleSelectEnum":["fish-1"],"legacyTitledEnum":"pet-1"}`
	if got := string(f.Content()); got != want {
		t.Errorf("content\n got %s\nwant %s", got, want)
	}
	res, errs, err := f.Accept()
	if err != nil || len(errs) > 0 || res.Action != Accept || string(res.Content) != want {
		t.Errorf("Accept: %+v %v %v", res, errs, err)
	}
}

// TestDefaultsAsSeen: a text default is sent as the field shows it, so a
// run of spaces that would push the rest out of a one-line field's view
// shows as a marker.
func TestDefaultsAsSeen(t *testing.T) {
	for _, tt := range []struct{ name, schema, want string }{
		{"200 spaces before an address", `{"type":"string","default":"` + strings.Repeat(" ", 200) + `evil@attacker.example"}`, "⟨200 spaces⟩evil@attacker.example"},
		{"no-break spaces too", `{"type":"string","default":"a` + strings.Repeat("\u00a0", 9) + `b"}`, "a⟨9 spaces⟩b"},
		{"a few spaces stay", `{"type":"string","default":"two  words   apart"}`, "two  words   apart"},
		{"a multi-line field keeps its indentation", `{"type":"string","maxLength":1000,"default":"code:\n        indented"}`, "code:\n        indented"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := NewForm(mustParse(t, `{"type":"object","properties":{"x":`+tt.schema+`}}`))
			var got struct{ X string }
			if err := json.Unmarshal(f.Content(), &got); err != nil {
				t.Fatal(err)
			}
			if got.X != tt.want {
				t.Errorf("sends %q, want %q", got.X, tt.want)
			}
		})
	}
}

func TestFormInput(t *testing.T) {
	schema := `{"type":"object","properties":{
		"nick":{"type":"string","minLength":3,"maxLength":5},
		"age":{"type":"integer","minimum":18},
		"ratio":{"type":"number","maximum":1},
		"day":{"type":"string","format":"date"},
		"tags":{"type":"array","items":{"enum":["a","b","c","d"]},"minItems":1,"maxItems":2}
	},"required":["age","tags"]}`
	tests := []struct {
		name    string
		set     func(*Form)
		field   string
		wantErr string
		want    string // the field's JSON in Content, or "" when left out
	}{
		{"short", func(f *Form) { f.SetText("nick", "ab") }, "nick", "At least 3 characters", `"ab"`},
		{"emoji count as one", func(f *Form) { f.SetText("nick", "🙂🙂🙂") }, "nick", "", `"🙂🙂🙂"`},
		{"long", func(f *Form) { f.SetText("nick", "abcdef") }, "nick", "At most 5 characters", `"abcdef"`},
		{"optional empty omitted", func(f *Form) { f.SetText("nick", "") }, "nick", "", ""},
		{"integer", func(f *Form) { f.SetText("age", "42") }, "age", "", `42`},
		{"integer written with fraction", func(f *Form) { f.SetText("age", "42.0") }, "age", "", `42`},
		{"integer fraction", func(f *Form) { f.SetText("age", "42.5") }, "age", "Must be a whole number", ""},
		{"below minimum", func(f *Form) { f.SetText("age", "17") }, "age", "At least 18", `17`},
		{"not a number", func(f *Form) { f.SetText("age", "NaN") }, "age", "Enter a whole number, like 42", ""},
		{"required empty", func(f *Form) { f.SetText("age", " ") }, "age", "Required", ""},
		{"number kept as typed", func(f *Form) { f.SetText("ratio", "0.10") }, "ratio", "", `0.10`},
		{"number too big", func(f *Form) { f.SetText("ratio", "1.5") }, "ratio", "At most 1", `1.5`},
		{"infinite", func(f *Form) { f.SetText("ratio", "1e999") }, "ratio", "The number is too large", ""},
		{"date", func(f *Form) { f.SetText("day", "2024-02-29") }, "day", "", `"2024-02-29"`},
		{"not a calendar date", func(f *Form) { f.SetText("day", "2025-02-30") }, "day", "Enter a date like 2025-02-14", `"2025-02-30"`},
		{"widget complaint", func(f *Form) { f.SetInvalid("day", "Pick a date") }, "day", "Pick a date", ""},
		{"choices in option order", func(f *Form) { f.SetChosen("tags", "b", "a", "zz") }, "tags", "", `["a","b"]`},
		{"too many choices", func(f *Form) { f.SetChosen("tags", "a", "b", "c") }, "tags", "Choose at most 2", `["a","b","c"]`},
		{"required multi empty", func(f *Form) { f.SetChosen("tags") }, "tags", "Choose at least 1", `[]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewForm(mustParse(t, schema))
			tt.set(f)
			if got := f.Error(tt.field); got != tt.wantErr {
				t.Errorf("error %q, want %q", got, tt.wantErr)
			}
			var content map[string]json.RawMessage
			if err := json.Unmarshal(f.Content(), &content); err != nil {
				t.Fatal(err)
			}
			if got := string(content[tt.field]); got != tt.want {
				t.Errorf("content %s, want %s", got, tt.want)
			}
		})
	}
}

func TestAcceptRefusesInvalid(t *testing.T) {
	f := NewForm(mustParse(t, `{"type":"object","properties":{"e":{"type":"string","format":"email"}},"required":["e"]}`))
	f.SetText("e", "nope")
	res, errs, err := f.Accept()
	if err != nil || res.Action != "" || errs["e"] == "" {
		t.Fatalf("Accept of invalid form: %+v %v %v", res, errs, err)
	}
}

// TestVerifyCatchesOutOfSpecKeywords shows the final check enforcing what
// the form does not: a keyword outside the spec.
func TestVerifyCatchesOutOfSpecKeywords(t *testing.T) {
	s := mustParse(t, `{"type":"object","properties":{"n":{"type":"number","multipleOf":5}}}`)
	if len(s.Warnings) != 1 {
		t.Fatalf("want a warning for multipleOf, got %v", s.Warnings)
	}
	f := NewForm(s)
	f.SetText("n", "7")
	_, errs, err := f.Accept()
	if err != nil || errs["n"] == "" {
		t.Fatalf("want the final check to refuse 7, got %v %v", errs, err)
	}
	f.SetText("n", "10")
	if res, errs, err := f.Accept(); err != nil || len(errs) > 0 || string(res.Content) != `{"n":10}` {
		t.Fatalf("10: %+v %v %v", res, errs, err)
	}
}

func TestEmptyForm(t *testing.T) {
	f := NewForm(mustParse(t, `{"type":"object","properties":{}}`))
	res, errs, err := f.Accept()
	if err != nil || len(errs) > 0 || string(res.Content) != `{}` {
		t.Fatalf("%+v %v %v", res, errs, err)
	}
}

// TestBadInput feeds hostile schemas: each must give a clear answer, not a
// panic or a hang. BenchmarkLintHostile measures what each costs.
func TestBadInput(t *testing.T) {
	for name, raw := range hostileSchemas() {
		t.Run(name, func(t *testing.T) {
			problems, err := Lint(raw)
			if err == nil && !hasFatal(problems) {
				t.Fatalf("no fatal problem reported: %v", problems)
			}
		})
	}
}

// TestLimits checks each limit at its edge: at the limit a schema is read,
// one over it is refused with a problem that names the limit.
func TestLimits(t *testing.T) {
	fields := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"f` + strconv.Itoa(i) + `":{"type":"boolean"}`)
		}
		return `{"type":"object","properties":{` + b.String() + `}}`
	}
	text := func(n int) string {
		return `{"type":"object","properties":{"s":{"type":"string","title":"` + strings.Repeat("é", n) + `"}}}`
	}
	choices := func(n int) string {
		opts := make([]string, n)
		for i := range opts {
			opts[i] = strconv.Quote(strconv.Itoa(i))
		}
		return `{"type":"object","properties":{"c":{"type":"string","enum":[` + strings.Join(opts, ",") + `]}}}`
	}
	tests := []struct {
		name      string
		ok, over  string
		path, msg string
	}{
		{"fields", fields(MaxFields), fields(MaxFields + 1), "#/properties", "a form may have at most 500"},
		{"text", text(MaxText), text(MaxText + 1), "#/properties/s/title", "a schema's text may have at most 10000"},
		{"choices", choices(MaxItems), choices(MaxItems + 1), "#/properties/c/enum", "a schema's list may have at most 1000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Parse([]byte(tt.ok)); err != nil {
				t.Errorf("at the limit: %v", err)
			}
			problems, err := Lint([]byte(tt.over))
			if err != nil {
				t.Fatal(err)
			}
			if len(problems) != 1 || problems[0].Severity != Fatal || problems[0].Path != tt.path || !strings.Contains(problems[0].Message, tt.msg) {
				t.Errorf("over the limit: %v, want one fatal problem at %s saying %q", problems, tt.path, tt.msg)
			}
		})
	}
}

// hostileSchemas are large or malformed schemas a server might send.
func hostileSchemas() map[string][]byte {
	many := func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"type":"object","properties":{`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"f` + strings.Repeat("x", i%7) + strconv.Itoa(i) + `":{"type":"string"}`)
		}
		b.WriteString(`}}`)
		return []byte(b.String())
	}
	return map[string][]byte{
		"10000 properties":   many(10_000),
		"50000 properties":   many(50_000),
		"1 MB string":        []byte(`{"type":"object","properties":{"s":{"type":"string","description":"` + strings.Repeat("é", 1<<19) + `"}}}`),
		"deep nesting":       []byte(`{"type":"object","properties":{"x":` + strings.Repeat(`{"a":`, 5000) + `1` + strings.Repeat(`}`, 5000) + `}}`),
		"NaN-like numbers":   []byte(`{"type":"object","properties":{"n":{"type":"number","minimum":1e999,"maximum":-1e999}}}`),
		"NaN literal":        []byte(`{"type":"object","properties":{"n":{"type":"number","minimum":NaN}}}`),
		"duplicate keys":     []byte(`{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"number"}}}`),
		"not JSON":           []byte(`type: object`),
		"unclosed":           []byte(`{"type":"object","properties":{`),
		"huge minLength":     []byte(`{"type":"object","properties":{"s":{"type":"string","minLength":1e300}}}`),
		"required not names": []byte(`{"type":"object","properties":{},"required":[{}]}`),
	}
}

// BenchmarkLintHostile measures linting each hostile schema; the goal is a
// clear answer within 100 ms for every one.
func BenchmarkLintHostile(b *testing.B) {
	for name, raw := range hostileSchemas() {
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			for b.Loop() {
				_, _ = Lint(raw)
			}
		})
	}
}

func TestFormSet(t *testing.T) {
	s := everything(t)
	tests := []struct {
		name    string
		field   string
		value   any
		wantErr bool
		want    string // the field's JSON in Content after a successful Set
	}{
		{"text", "name", "Ada", false, `"Ada"`},
		{"integer from json.Number", "integer", json.Number("7"), false, `7`},
		{"number from float", "number", 2.5, false, `2.5`},
		{"boolean", "check", true, false, `true`},
		{"choice", "titledSingleSelectEnum", "hero-2", false, `"hero-2"`},
		{"multi", "untitledMultipleSelectEnum", []any{"Piano", "Bass"}, false, `["Piano","Bass"]`},
		{"unknown field", "nope", "x", true, ""},
		{"wrong type", "check", "yes", true, ""},
		{"not an option", "legacyTitledEnum", "pet-9", true, ""},
		{"multi with a stranger", "untitledMultipleSelectEnum", []any{"Piano", "Kazoo"}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewForm(s)
			err := f.Set(tt.field, tt.value)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v", err)
			}
			if tt.wantErr {
				return
			}
			var content map[string]json.RawMessage
			json.Unmarshal(f.Content(), &content)
			if got := string(content[tt.field]); got != tt.want {
				t.Errorf("content %s, want %s", got, tt.want)
			}
		})
	}
}

// TestBooleanStates follows each kind of boolean through a person's steps:
// an optional one without a default starts not set and is sent only once
// set; a required one, or one with a default, is always sent. Every
// content on the way is valid to both validators.
func TestBooleanStates(t *testing.T) {
	s := mustParse(t, `{"type":"object","properties":{
		"maybe":{"type":"boolean"},
		"usual":{"type":"boolean","default":true},
		"agree":{"type":"boolean"}
	},"required":["agree"]}`)
	f := NewForm(s)
	for _, tt := range []struct {
		name  string
		do    func()
		unset bool // maybe is not set
		want  string
	}{
		{"untouched", func() {}, true, `{"usual":true,"agree":false}`},
		{"set to no", func() { f.SetChecked("maybe", false) }, false, `{"maybe":false,"usual":true,"agree":false}`},
		{"set to yes", func() { f.SetChecked("maybe", true) }, false, `{"maybe":true,"usual":true,"agree":false}`},
		{"back to not set", func() { f.ClearChecked("maybe") }, true, `{"usual":true,"agree":false}`},
		{"others never unset", func() { f.ClearChecked("usual"); f.ClearChecked("agree") }, true, `{"usual":true,"agree":false}`},
		{"set by a script", func() { f.Set("maybe", false) }, false, `{"maybe":false,"usual":true,"agree":false}`},
	} {
		tt.do()
		if got := string(f.Content()); got != tt.want {
			t.Errorf("%s: content %s, want %s", tt.name, got, tt.want)
		}
		if f.Unset("maybe") != tt.unset || f.Unset("usual") || f.Unset("agree") {
			t.Errorf("%s: unset %v %v %v", tt.name, f.Unset("maybe"), f.Unset("usual"), f.Unset("agree"))
		}
		if f.Unset("maybe") && f.Checked("maybe") {
			t.Errorf("%s: a field not set reads as checked", tt.name)
		}
		mine, err := s.ValidateJSON(f.Content())
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := s.Verify(f.Content())
		if err != nil || len(mine) > 0 || len(theirs) > 0 {
			t.Errorf("%s: form says %v, JSON Schema says %v %v", tt.name, mine, theirs, err)
		}
	}
	for name, tri := range map[string]bool{"maybe": true, "usual": false, "agree": false} {
		if s.Field(name).TriState() != tri {
			t.Errorf("%s: TriState %v", name, !tri)
		}
	}
}

// TestUntouchedBooleansAcrossCorpus checks every schema of the corpus: an
// untouched form sends each boolean that is required or has a default,
// and no other.
func TestUntouchedBooleansAcrossCorpus(t *testing.T) {
	booleans := 0
	for _, file := range append(corpus(t, "ok"), corpus(t, "warn")...) {
		s, err := Parse(readFile(t, file))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var content map[string]json.RawMessage
		if err := json.Unmarshal(NewForm(s).Content(), &content); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, field := range s.Fields {
			if field.Kind != Boolean {
				continue
			}
			booleans++
			if _, sent := content[field.Name]; sent == field.TriState() {
				t.Errorf("%s: %s (required %v, default %v) sent: %v", filepath.Base(file), field.Name, field.Required, field.Default, sent)
			}
		}
	}
	if booleans == 0 {
		t.Fatal("the corpus has no boolean; this test proves nothing")
	}
	t.Logf("%d booleans", booleans)
}

// TestProblemWords: what lint says of a problem reads as a sentence, with
// the figures that make it one.
func TestProblemWords(t *testing.T) {
	for _, tt := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","enum":["x","y"]},"maxItems":1,"default":["x","y"]}}}`,
			`warning #/properties/a/default: the default ["x","y"] breaks the field's own rules: Choose at most 1`},
		{`{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","enum":["x"]},"minItems":3}}}`,
			`fatal #/properties/a/minItems: minItems 3 is above the 1 option to choose from: no selection can fit`},
	} {
		s, err := Parse([]byte(tt.schema))
		var problems []Problem
		var se *SchemaError
		switch {
		case errors.As(err, &se):
			problems = se.Problems
		case err != nil:
			t.Fatal(err)
		default:
			problems = s.Warnings
		}
		if len(problems) != 1 || problems[0].String() != tt.want {
			t.Errorf("%s:\ngot  %v\nwant %s", tt.schema, problems, tt.want)
		}
	}
}

// TestAlikeLabelsToldApart: fields whose labels read alike are told apart
// by their property names, or by their places where the names read alike
// too; other labels stay as the server wrote them.
func TestAlikeLabelsToldApart(t *testing.T) {
	for _, tt := range []struct {
		name, properties string
		want             []string
	}{
		{"two titled Password", `"password":{"type":"string","title":"Password"},"exfil":{"type":"string","title":"password"}`,
			[]string{"Password (password)", "password (exfil)"}},
		{"a look-alike title", `"a":{"type":"string","title":"Password"},"b":{"type":"string","title":"Pаssword"}`,
			[]string{"Password (a)", "Pаssword (b)"}},
		{"look-alike names without titles", `"password":{"type":"string"},"pаssword":{"type":"string"}`,
			[]string{"password (field 1)", "pаssword (field 2)"}},
		{"different titles stay", `"a":{"type":"string","title":"Name"},"b":{"type":"string","title":"Email"}`,
			[]string{"Name", "Email"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, `{"type":"object","properties":{`+tt.properties+`}}`)
			var got []string
			for _, f := range s.Fields {
				got = append(got, f.Label().Line())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("labels %q, want %q", got, tt.want)
			}
		})
	}
}
