package formview

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/forms"
)

// TestHelpAboveTheButtonsWhenNarrow narrows a form's window: the help
// stays beside Decline, Cancel and Accept while it has its width there,
// and goes above them once it has not; the buttons keep their height.
func TestHelpAboveTheButtonsWhenNarrow(t *testing.T) {
	test.NewTempApp(t)
	s, err := forms.Parse([]byte(`{"type":"object","properties":{"ok":{"type":"boolean","title":"Confirm"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	v := New(forms.NewForm(s), "Proceed?", Options{})
	w := test.NewTempWindow(t, v)
	d := fyne.CurrentApp().Driver()
	accept := v.buttons[len(v.buttons)-1]
	for _, tt := range []struct {
		width float32
		above bool
	}{{760, false}, {300, true}, {760, false}} {
		w.Resize(fyne.NewSize(tt.width, 600))
		h, a := d.AbsolutePositionForObject(v.help), d.AbsolutePositionForObject(accept)
		above := a.Y >= h.Y+v.help.Size().Height-1
		if above != tt.above {
			t.Errorf("at width %v: the help above the buttons %v, want %v (help at %v size %v, Accept at %v)", tt.width, above, tt.above, h, v.help.Size(), a)
		}
		if got, want := accept.Size().Height, accept.MinSize().Height; got > want+1 {
			t.Errorf("at width %v: Accept %v tall, want its own %v", tt.width, got, want)
		}
	}
}
