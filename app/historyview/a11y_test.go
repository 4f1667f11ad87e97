package historyview

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/app/a11y/a11ytest"
	"github.com/elicitdesk/elicitdesk/app/keys"
)

// TestAccessible checks each custom widget of the package says what it is
// and holds: a filter by what it filters and its choice; and that a
// filter passes Escape on to the window, which closes.
func TestAccessible(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	closed := 0
	f := newFilter(keys.Close(w, func() { closed++ }), "Outcome", outcomeChoices())
	w.SetContent(f)
	f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if closed != 1 {
		t.Errorf("Escape on a filter closed the window %d times, want once", closed)
	}
	f.SetSelected(allOutcomes)
	a11ytest.Check(t, ".", f)
	if got, want := f.AccessibilityLabel(), "Outcome: "+allOutcomes; got != want {
		t.Errorf("label = %q, want %q", got, want)
	}
}
