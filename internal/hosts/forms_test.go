package hosts

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/forms"
)

// TestFormSupports: every record of forms.json says of which version it
// is, when and from where it was recorded, in the words Judge reads.
func TestFormSupports(t *testing.T) {
	kinds := []string{}
	for k := forms.Text; k <= forms.MultiChoice; k++ {
		kinds = append(kinds, k.String())
	}
	date := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	seen := map[string]bool{}
	for _, h := range FormSupports() {
		if h.ID == "" || h.Name == "" || h.Version == "" || h.Source == "" || !date.MatchString(h.Date) || seen[h.ID] {
			t.Errorf("%+v: an id of its own, a name, a version, a date and a source", h)
		}
		seen[h.ID] = true
		if !slices.Contains([]string{"renders", "drops", "undeclared"}, h.Form) || !slices.Contains([]string{"opens", "undeclared", "unknown"}, h.URL) {
			t.Errorf("%s: form %q, url %q", h.ID, h.Form, h.URL)
		}
		for kind, how := range h.Fields {
			if !slices.Contains(kinds, kind) || how != "input" && how != "approval" {
				t.Errorf("%s: %s is %q", h.ID, kind, how)
			}
		}
	}
}

func TestJudge(t *testing.T) {
	codex := FormSupport{ID: "codex", Form: "renders", Fields: map[string]string{"text": "input", "boolean": "input", "number": "approval"}}
	tests := []struct {
		name   string
		host   FormSupport
		schema string
		shows  string
	}{
		{"every kind it shows", codex, `{"type":"object","properties":{"name":{"type":"string"},"ok":{"type":"boolean"}}}`, "the form"},
		{"a kind that makes it a prompt", codex, `{"type":"object","properties":{"name":{"type":"string"},"n\u202e":{"type":"number"}}}`,
			"an approve-or-decline prompt: no field can be filled in, every value is lost, because of “n⟨U+202E⟩” (number)"},
		{"a kind not recorded", codex, `{"type":"object","properties":{"tier":{"type":"string","enum":["a","b"]}}}`,
			"the form, but for fields of kinds not recorded: “tier” (choice)"},
		{"a host that drops it", FormSupport{Form: "drops"}, `{"type":"object","properties":{}}`, "nothing: it drops the request"},
		{"a host without elicitation", FormSupport{Form: "undeclared"}, `{"type":"object","properties":{}}`, "nothing: it declares no elicitation"},
		{"a host not known", FormSupport{}, `{"type":"object","properties":{}}`, "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := forms.Parse([]byte(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			if got := Judge(s, tt.host).Shows; !strings.HasPrefix(got, tt.shows) {
				t.Errorf("shows %q, want %q", got, tt.shows)
			}
		})
	}
}

// TestLost: a bridged request's window says what its host would have
// done without the bridge only where the person's answer would have been
// lost, from forms.json's records.
func TestLost(t *testing.T) {
	number := `{"type":"object","properties":{"n":{"type":"number"}}}`
	text := `{"type":"object","properties":{"name":{"type":"string"}}}`
	tests := []struct{ host, schema, says string }{
		{"Codex", number, "Without Elicit Desk, Codex would show only approve or decline: every value lost."},
		{"Codex", text, ""},
		{"Cursor", text, "Without Elicit Desk, Cursor drops this request."},
		{"Claude Desktop", text, "Without Elicit Desk, Claude Desktop takes no forms: its servers could not ask you."},
		{"Claude Code", number, ""},
		{"A host never recorded", text, ""},
	}
	for _, tt := range tests {
		s, err := forms.Parse([]byte(tt.schema))
		if err != nil {
			t.Fatal(err)
		}
		if got := Lost(tt.host, s); got != tt.says {
			t.Errorf("%s, %s: %q, want %q", tt.host, tt.schema, got, tt.says)
		}
	}
}
