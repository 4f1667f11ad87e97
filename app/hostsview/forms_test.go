package hostsview

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
)

// TestFormPanel: opened, the panel names every host recorded with what it
// does with the form; a server's field names show through untrusted.
func TestFormPanel(t *testing.T) {
	test.NewTempApp(t)
	for _, h := range uitest.HostileStrings(t) {
		s, err := forms.Parse(uitest.HostileSchema(h.Text))
		if err != nil {
			t.Fatal(err)
		}
		panel := FormPanel(s)
		panel.(*look.Disclosure).Open()
		w := test.NewWindow(panel)
		texts := uitest.WindowTexts(w)
		uitest.Check(t, "the form's hosts panel", texts)
		var all []string
		for _, x := range texts {
			all = append(all, x.Text)
		}
		for _, rec := range hosts.FormSupports() {
			if !strings.Contains(strings.Join(all, "\n"), rec.Name) {
				t.Errorf("%s: %s is not named", h.Name, rec.Name)
			}
		}
		w.Close()
	}
}
