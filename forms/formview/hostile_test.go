package formview

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
)

// TestHostileForm fills every place of a form with each hostile string and
// checks that the window shows none of its hidden characters raw and
// stays narrow enough for a screen; an invalid Accept shows the errors too.
func TestHostileForm(t *testing.T) {
	for _, h := range uitest.HostileStrings(t) {
		t.Run(h.Name, func(t *testing.T) {
			test.NewTempApp(t)
			s, err := forms.Parse(uitest.HostileSchema(h.Text))
			if err != nil {
				t.Fatal(err)
			}
			v := New(forms.NewForm(s), untrusted.Text(h.Text), Options{Zone: time.UTC})
			w := test.NewWindow(nil)
			defer w.Close()
			v.Install(w)
			w.Resize(fyne.NewSize(900, 700))
			uitest.Check(t, "form", uitest.WindowTexts(w))
			uitest.CheckWidth(t, "form", v, 900)
			v.Accept()
			uitest.Check(t, "form after Accept", uitest.WindowTexts(w))
		})
	}
}

// TestHostilePatternError: a field's error quotes the server's pattern,
// and shows it as untrusted text, cut short, beside the field and in the
// review.
func TestHostilePatternError(t *testing.T) {
	for _, h := range uitest.HostileStrings(t) {
		t.Run(h.Name, func(t *testing.T) {
			test.NewTempApp(t)
			schema, err := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
				"code": map[string]any{"type": "string", "pattern": "^" + regexp.QuoteMeta(h.Text) + "$", "default": "x"},
			}})
			if err != nil {
				t.Fatal(err)
			}
			s, err := forms.Parse(schema)
			if err != nil {
				t.Fatal(err)
			}
			v := New(forms.NewForm(s), "Which code?", Options{Zone: time.UTC})
			w := test.NewWindow(nil)
			defer w.Close()
			v.Install(w)
			w.Resize(fyne.NewSize(900, 700))
			v.Accept()
			texts := uitest.WindowTexts(w)
			if !slices.ContainsFunc(texts, func(s uitest.Seen) bool { return strings.HasPrefix(s.Text, "Must match the pattern ") }) {
				t.Fatalf("no error names the pattern: %q", texts)
			}
			uitest.Check(t, "form after Accept", texts)
			uitest.CheckWidth(t, "form", v, 900)
		})
	}
}
