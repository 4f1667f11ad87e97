package formview

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/forms"
)

// BenchmarkKeystroke200 measures one keystroke in the 200-field form:
// the form re-checked, the review rewritten and what changed redrawn.
func BenchmarkKeystroke200(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "schemas", "ok", "large-200-fields.json"))
	if err != nil {
		b.Fatal(err)
	}
	s, err := forms.Parse(raw)
	if err != nil {
		b.Fatal(err)
	}
	test.NewTempApp(b)
	w := test.NewWindow(nil)
	defer w.Close()
	v := New(forms.NewForm(s), "", Options{})
	w.SetContent(v)
	w.Resize(fyne.NewSize(960, 720))
	var typed fyne.Focusable
	for _, r := range v.rows {
		if e, ok := r.focus.(*entry); ok && !e.MultiLine {
			typed = e
			break
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		typed.TypedRune('x')
		typed.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
	}
}
