package uitest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"fyne.io/fyne/v2"
)

// Check fails t for every text in seen that holds a forbidden rune, naming
// the surface, the widget and the rune.
func Check(t testing.TB, surface string, seen []Seen) {
	t.Helper()
	for _, s := range seen {
		if r, at, found := Forbidden(s.Text); found {
			t.Errorf("%s: %s shows U+%04X raw at byte %d of %+q", surface, s.Widget, r, at, s.Text)
		}
	}
}

// CheckWidth fails t when o asks for more width than max: a long unbroken
// server text must wrap, not push the window off the screen.
func CheckWidth(t testing.TB, surface string, o fyne.CanvasObject, max float32) {
	t.Helper()
	if w := o.MinSize().Width; w > max {
		t.Errorf("%s: needs %.0f px of width, more than %.0f", surface, w, max)
	}
}

// Hostile is one string of testdata/hostile/strings.json, by its name.
type Hostile struct{ Name, Text string }

// HostileStrings reads testdata/hostile/strings.json at the module's root,
// in name order.
func HostileStrings(t testing.TB) []Hostile {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(moduleRoot(t), "testdata", "hostile", "strings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Strings map[string]string }
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatalf("hostile strings: %v", err)
	}
	var out []Hostile
	for name, text := range file.Strings {
		out = append(out, Hostile{name, text})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// moduleRoot is the nearest folder above the test's own holding go.mod.
func moduleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}

// HostileSchema is a requested schema that puts s in every place a server
// writes text: a property name, titles, descriptions, option titles (enum
// values, oneOf and anyOf titles, enumNames) and a text default; both a
// few options (radio buttons) and many (a drop-down).
func HostileSchema(s string) []byte {
	many := []string{"1", "2", "3", "4", "5"}
	names := []string{s, s + " 2", s + " 3", s + " 4", s + " 5"}
	titled := []map[string]string{{"const": "a", "title": s}, {"const": "b", "title": "B " + s}}
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			s:          map[string]any{"type": "string", "title": s, "description": s, "default": s},
			"named":    map[string]any{"type": "string", "description": s, "default": s, "maxLength": 1000},
			"choice":   map[string]any{"type": "string", "title": s, "oneOf": titled, "default": "a"},
			"many":     map[string]any{"type": "string", "title": s, "enum": many, "enumNames": names, "default": "1"},
			"untitled": map[string]any{"type": "string", "enum": []string{s, "x"}, "default": s},
			"multi":    map[string]any{"type": "array", "title": s, "items": map[string]any{"anyOf": titled}, "default": []string{"a"}},
			"flag":     map[string]any{"type": "boolean", "title": s, "description": s, "default": true},
			"count":    map[string]any{"type": "integer", "title": s, "description": s, "default": 3},
		},
		"required": []string{s, "choice"},
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		panic(err) // maps of strings always marshal
	}
	return raw
}
