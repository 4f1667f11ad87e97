package historyview

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/app/a11y/a11ytest"
)

// TestAccessible checks each custom widget of the package says what it is
// and holds: a filter by what it filters and its choice.
func TestAccessible(t *testing.T) {
	test.NewTempApp(t)
	f := newFilter("Outcome", outcomeChoices())
	f.SetSelected(allOutcomes)
	a11ytest.Check(t, ".", f)
	if got, want := f.AccessibilityLabel(), "Outcome: "+allOutcomes; got != want {
		t.Errorf("label = %q, want %q", got, want)
	}
}
