package uitest

import (
	"encoding/json"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/testkit/hostile"

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

// HostileStrings is the hostile text every surface is tested with.
func HostileStrings(t testing.TB) []hostile.String {
	t.Helper()
	hs, err := hostile.Strings()
	if err != nil {
		t.Fatalf("hostile strings: %v", err)
	}
	return hs
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
