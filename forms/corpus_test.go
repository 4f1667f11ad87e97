package forms

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// corpus returns the files of one folder of testdata/schemas.
func corpus(t testing.TB, folder string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "schemas", folder, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in %s: %v", folder, err)
	}
	return files
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantPaths reads NAME.want: the paths of the expected problems, one a line.
func wantPaths(t *testing.T, schemaFile string) []string {
	t.Helper()
	f, err := os.Open(strings.TrimSuffix(schemaFile, ".json") + ".want")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var paths []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			paths = append(paths, line)
		}
	}
	return uniqueSorted(paths)
}

func uniqueSorted(s []string) []string {
	sort.Strings(s)
	return slices.Compact(s)
}

func problemPaths(problems []Problem, sev Severity) []string {
	var out []string
	for _, p := range problems {
		if p.Severity == sev {
			out = append(out, p.Path)
		}
	}
	return uniqueSorted(out)
}

func TestLintOK(t *testing.T) {
	for _, file := range corpus(t, "ok") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			problems, err := Lint(readFile(t, file))
			if err != nil || len(problems) > 0 {
				t.Fatalf("want no problems, got %v %v", problems, err)
			}
			s, err := Parse(readFile(t, file))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range s.Fields {
				if f.Kind == Choice || f.Kind == MultiChoice {
					if len(f.Options) == 0 {
						t.Errorf("%s: choice field without options", f.Name)
					}
				}
			}
		})
	}
}

func TestLintWarnings(t *testing.T) {
	for _, file := range corpus(t, "warn") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw := readFile(t, file)
			problems, err := Lint(raw)
			if err != nil {
				t.Fatal(err)
			}
			if fatal := problemPaths(problems, Fatal); len(fatal) > 0 {
				t.Fatalf("want no fatal problem, got %v", problems)
			}
			if got, want := problemPaths(problems, Warning), wantPaths(t, file); !slices.Equal(got, want) {
				t.Errorf("warning paths\n got %v\nwant %v\n(%v)", got, want, problems)
			}
			s, err := Parse(raw)
			if err != nil {
				t.Fatalf("a schema with only warnings must parse: %v", err)
			}
			// A form warns of a secret beside its field, not above the form.
			shown := slices.DeleteFunc(problems, func(p Problem) bool { return p.Message == secretProblem })
			if len(s.Warnings) != len(shown) {
				t.Errorf("Parse kept %d warnings, Lint found %d to show above the form", len(s.Warnings), len(shown))
			}
		})
	}
}

func TestLintFatal(t *testing.T) {
	for _, file := range corpus(t, "fatal") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw := readFile(t, file)
			problems, err := Lint(raw)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := problemPaths(problems, Fatal), wantPaths(t, file); !slices.Equal(got, want) {
				t.Errorf("fatal paths\n got %v\nwant %v\n(%v)", got, want, problems)
			}
			for _, p := range problems {
				if p.Message == "" || !strings.HasPrefix(p.Path, "#") {
					t.Errorf("problem without path or message: %+v", p)
				}
			}
			var se *SchemaError
			if _, err := Parse(raw); !errors.As(err, &se) {
				t.Fatalf("Parse: want *SchemaError, got %v", err)
			}
			if !hasFatal(se.Problems) || !strings.Contains(se.Error(), problemPaths(problems, Fatal)[0]) {
				t.Errorf("SchemaError does not name the fatal problem: %v", se)
			}
		})
	}
}

func TestLintNotJSON(t *testing.T) {
	for _, file := range corpus(t, "notjson") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			_, err := Lint(readFile(t, file))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("want *SyntaxError, got %v", err)
			}
			if se.Line < 1 || se.Column < 1 || !strings.Contains(se.Error(), "line") {
				t.Errorf("error lacks a position: %v", se)
			}
		})
	}
}

// validateCase is one file of testdata/validate.
type validateCase struct {
	Schema json.RawMessage `json:"schema"`
	Cases  []struct {
		Name    string          `json:"name"`
		Content json.RawMessage `json:"content"`
		Invalid []string        `json:"invalid"`
	} `json:"cases"`
}

func loadValidateCases(t *testing.T) map[string]validateCase {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "validate", "*.json"))
	if len(files) == 0 {
		t.Fatal("no validate corpus")
	}
	out := map[string]validateCase{}
	for _, f := range files {
		var vc validateCase
		if err := json.Unmarshal(readFile(t, f), &vc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = vc
	}
	return out
}

func fieldNames(errs FieldErrors) []string {
	var out []string
	for name := range errs {
		out = append(out, name)
	}
	return uniqueSorted(out)
}

// TestValidate checks the form's own validator, and the full JSON Schema
// validator behind Verify, against the expected verdicts of the corpus.
func TestValidate(t *testing.T) {
	for file, vc := range loadValidateCases(t) {
		s, err := Parse(vc.Schema)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, c := range vc.Cases {
			t.Run(file+"/"+c.Name, func(t *testing.T) {
				want := uniqueSorted(append([]string{}, c.Invalid...))
				errs, err := s.ValidateJSON(c.Content)
				if err != nil {
					t.Fatal(err)
				}
				if got := fieldNames(errs); !slices.Equal(got, want) {
					t.Errorf("Validate: invalid fields %v, want %v (%v)", got, want, errs)
				}
				for name, msg := range errs {
					if msg == "" {
						t.Errorf("%s: empty message", name)
					}
				}
				verified, err := s.Verify(c.Content)
				if err != nil {
					t.Fatal(err)
				}
				if got := fieldNames(verified); !slices.Equal(got, want) {
					t.Errorf("Verify: invalid fields %v, want %v (%v)", got, want, verified)
				}
			})
		}
	}
}

// probes are values of every JSON type and of the shapes formats and bounds
// care about; TestValidatorsAgree tries each in each field of every schema.
var probes = []any{
	nil, true, false, 0, -1, 1, 1.5, 3.0, 42, 100, 101, 1000, 1e9, -273.15,
	"", "a", "ab", "abc", "hello world", "héllo", "日本語テキスト", "🙂🙂🙂",
	strings.Repeat("x", 300), "name@example.com", "not an email", "@example.com", "a@b",
	"https://example.com/x", "example.com", "mailto:a@b.c", "2025-02-14", "2025-02-30", "2024-02-29",
	"2025-02-14T09:30:00Z", "2025-02-14T09:30:00+01:00", "2025-02-14 09:30", "2025-02-14T25:00:00Z",
	[]any{}, []any{"x"}, []any{1}, map[string]any{"a": 1},
}

// TestValidatorsAgree proves the form's validator and the full JSON Schema
// validator give the same verdicts on every schema of the corpus.
func TestValidatorsAgree(t *testing.T) {
	var files []string
	files = append(files, corpus(t, "ok")...)
	files = append(files, corpus(t, "warn")...)
	compared := 0
	for _, file := range files {
		s, err := Parse(readFile(t, file))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if uncheckedKeywords(s) {
			continue // keywords outside the spec: only Verify knows them
		}
		for _, f := range s.Fields {
			values := append([]any{}, probes...)
			for _, o := range f.Options {
				values = append(values, o.Value, []any{o.Value})
			}
			if f.Default != nil {
				values = append(values, f.Default)
			}
			for _, v := range values {
				content, _ := json.Marshal(map[string]any{f.Name: v})
				mine, err := s.ValidateJSON(content)
				if err != nil {
					t.Fatal(err)
				}
				theirs, err := s.Verify(content)
				if err != nil {
					t.Fatal(err)
				}
				if a, b := fieldNames(mine), fieldNames(theirs); !slices.Equal(a, b) {
					t.Errorf("%s: content %s: form says %v, JSON Schema says %v", filepath.Base(file), content, mine, theirs)
				}
				compared++
			}
		}
	}
	t.Logf("%d verdicts compared", compared)
}

// uncheckedKeywords reports whether a schema uses keywords the form does not
// enforce (its warnings say so), where the two validators may rightly differ.
func uncheckedKeywords(s *Schema) bool {
	for _, w := range s.Warnings {
		if strings.Contains(w.Message, checkedLater) || strings.Contains(w.Message, "cannot be checked") {
			return true
		}
	}
	return false
}
