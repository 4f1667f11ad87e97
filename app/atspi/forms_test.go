package atspi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/forms/formview"
)

// schemaFile is a schema from forms/testdata/schemas.
func schemaFile(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "forms", "testdata", "schemas", "ok", name))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// longLabel is a form of one field whose title is 10,000 characters.
func longLabel(testing.TB) []byte {
	raw, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
		"f": map[string]any{"type": "string", "title": strings.Repeat("Long title ", 1000)[:10000]},
	}})
	return raw
}

// formWindow shows the form of schema in a window as a request shows it.
func formWindow(t testing.TB, raw []byte) fyne.Window {
	t.Helper()
	s, err := forms.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	w := test.NewWindow(formview.New(forms.NewForm(s), "Fill this in.", formview.Options{}))
	w.Resize(fyne.NewSize(960, 720))
	return w
}

// TestLargeForms builds the trees of forms too large to see at once:
// every field is there, in order, named as the form names it, scrolled
// out of sight or not.
func TestLargeForms(t *testing.T) {
	tests := []struct {
		name     string
		schema   func(testing.TB) []byte
		controls int // entries, check boxes and drop-downs
		longest  int // characters in the longest control name, at least
	}{
		{"200 fields", func(t testing.TB) []byte { return schemaFile(t, "large-200-fields.json") }, 200, 1},
		{"a label of 10,000 characters", longLabel, 1, 10000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test.NewTempApp(t)
			w := formWindow(t, tt.schema(t))
			controls, longest := 0, 0
			for _, s := range Said(w) {
				switch s.Role {
				case RoleEntry, RolePasswordText, RoleCheckBox, RoleComboBox, RolePanel:
					if s.Role == RolePanel && s.Name == "" {
						continue
					}
					controls++
					longest = max(longest, utf8.RuneCountInString(s.Name))
				}
			}
			if controls < tt.controls || longest < tt.longest {
				t.Errorf("%d controls, the longest name %d characters; want at least %d and %d", controls, longest, tt.controls, tt.longest)
			}
		})
	}
}

// BenchmarkTree builds the tree of a request window: what a screen
// reader's first call on a new window waits for, and what the adapter
// does every watchEvery while one runs.
func BenchmarkTree(b *testing.B) {
	for _, schema := range []string{"hand-all-features.json", "large-200-fields.json"} {
		b.Run(schema, func(b *testing.B) {
			test.NewTempApp(b)
			w := formWindow(b, schemaFile(b, schema))
			var prev *tree
			b.ReportAllocs()
			for b.Loop() {
				prev = build(prev, "App", []fyne.Window{w})
			}
			b.ReportMetric(float64(len(prev.byID)), "nodes")
		})
	}
}
