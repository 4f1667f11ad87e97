package app

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y/a11ytest"
)

// TestAccessible checks each custom widget of the package says what it is
// and holds: the key hold of a request window the app opened, and a
// number field by its bounds and value, and its − and + by what they do.
func TestAccessible(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("form"))
	k := holdKeys(w, byApp, time.Now, func() time.Time { return time.Time{} }, GuardTime, func() {}, nil)
	s := newSpin(7, 1, 20, nil)
	a11ytest.Check(t, ".", k, s, s.down)

	empty := newSpin(3, 1, 20, nil)
	empty.SetText("")
	tests := []struct {
		o    fyne.Accessible
		want string
	}{
		{k, heldNotice},
		{s, "Number from 1 to 20: 7"},
		{empty, "Number from 1 to 20: empty"},
		{s.down, "One less"},
		{s.up, "One more"},
	}
	for _, tt := range tests {
		if got := tt.o.AccessibilityLabel(); got != tt.want {
			t.Errorf("label = %q, want %q", got, tt.want)
		}
	}
	k.Tapped(nil) // the person clicks in the window: the hold is over
	if got := k.AccessibilityLabel(); got != "" {
		t.Errorf("after the hold the key hold still says %q", got)
	}
}
