package forms_test

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/forms/formview"
)

// benchmarkBuildForm measures building a request's form: parsing the
// schema and constructing every widget, ready to be shown.
func benchmarkBuildForm(b *testing.B, file string) {
	raw := readSchema(b, file)
	test.NewTempApp(b)
	b.ReportAllocs()
	for b.Loop() {
		s, err := forms.Parse(raw)
		if err != nil {
			b.Fatal(err)
		}
		formview.New(forms.NewForm(s), "Please provide inputs for the following fields:", formview.Options{})
	}
}

// benchmarkShowForm adds the first layout on a canvas, which creates every
// widget's renderer (Fyne decodes each check and radio icon's SVG here).
func benchmarkShowForm(b *testing.B, file string) {
	raw := readSchema(b, file)
	test.NewTempApp(b)
	w := test.NewWindow(nil)
	defer w.Close()
	b.ReportAllocs()
	for b.Loop() {
		s, err := forms.Parse(raw)
		if err != nil {
			b.Fatal(err)
		}
		w.SetContent(formview.New(forms.NewForm(s), "Please provide inputs for the following fields:", formview.Options{}))
		w.Resize(fyne.NewSize(960, 720))
	}
}

func readSchema(b *testing.B, file string) []byte {
	raw, err := os.ReadFile(filepath.Join("testdata", "schemas", "ok", file))
	if err != nil {
		b.Fatal(err)
	}
	return raw
}

// everythingForm is the 13-field form @modelcontextprotocol/server-everything's
// trigger-elicitation-request sends; largeForm has 200 fields of every kind.
const (
	everythingForm = "everything-trigger-elicitation-request.json"
	largeForm      = "large-200-fields.json"
)

func BenchmarkBuildFormEverything13(b *testing.B) { benchmarkBuildForm(b, everythingForm) }
func BenchmarkBuildForm200(b *testing.B)          { benchmarkBuildForm(b, largeForm) }
func BenchmarkShowFormEverything13(b *testing.B)  { benchmarkShowForm(b, everythingForm) }
func BenchmarkShowForm200(b *testing.B)           { benchmarkShowForm(b, largeForm) }
