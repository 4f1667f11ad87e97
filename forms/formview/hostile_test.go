package formview

import (
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
