package modal

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/look"
)

// TestKeys: with nothing focused, Escape taps a dialog's first button and
// Return a lone one; where there is a choice Return makes none; a dialog
// over another takes the keys while it is on top, and none once gone,
// whatever order they close in; and a key handler the window adds while a dialog shows (as F1
// is) stays once it closes.
func TestKeys(t *testing.T) {
	w := test.NewTempApp(t).NewWindow("w")
	w.Resize(fyne.NewSize(800, 600))
	c := w.Canvas()
	var got []string
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) { got = append(got, "window "+string(ev.Name)) })
	press := func(k fyne.KeyName) { c.OnTypedKey()(&fyne.KeyEvent{Name: k}) }
	choice := func(name string) (hide func()) {
		var h func()
		keep := look.NewButton("Cancel", nil, func() { got = append(got, name+" cancel"); h() })
		do := look.NewButton("Apply", nil, func() { got = append(got, name+" apply"); h() })
		do.Importance = widget.HighImportance
		h = Show(c, name, widget.NewLabel(name), fyne.NewSize(300, 200), keep, do)
		return h
	}
	step := func(what string, want ...string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", what, got, want)
		}
		got = nil
	}

	choice("a")
	press(fyne.KeyReturn)
	press(fyne.KeyEscape)
	step("a choice", "window Return", "a cancel")

	choice("a")
	choice("b") // over a
	press(fyne.KeyEscape)
	press(fyne.KeyEscape)
	press(fyne.KeyEscape)
	step("one over another", "b cancel", "a cancel", "window Escape")

	hideA := choice("a")
	choice("b")
	hideA() // under b, closed first: Fyne takes b off the canvas with it
	press(fyne.KeyEscape)
	step("the one under closed first", "window Escape")

	choice("a")
	before := c.OnTypedKey() // the window adds a key, as addAppKeys adds F1
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyF1 {
			got = append(got, "help")
			return
		}
		before(ev)
	})
	press(fyne.KeyEscape)
	press(fyne.KeyF1)
	step("a key added while a dialog shows", "a cancel", "help")

	Confirm(c, "Delete?", "It cannot be undone.", "Keep", "Delete", func() { got = append(got, "deleted") })
	press(fyne.KeyReturn)
	press(fyne.KeyEscape)
	Tell(c, "Done", "It is done.", func() { got = append(got, "told") })
	press(fyne.KeyReturn)
	step("Confirm, then Tell", "window Return", "told")
	if c.Overlays().Top() != nil {
		t.Error("a dialog is still open")
	}
}

// TestFocusedKeys: a dialog opens with the keyboard on its first button,
// the one that changes nothing; keys typed there do what they do on the
// desktop: Return and Space press it, Escape still closes the dialog
// (through the window's keys, which the button passes it on to).
func TestFocusedKeys(t *testing.T) {
	w := test.NewTempApp(t).NewWindow("w")
	w.Resize(fyne.NewSize(800, 600))
	c := w.Canvas()
	for _, k := range []fyne.KeyName{fyne.KeyReturn, fyne.KeySpace, fyne.KeyEscape} {
		var got []string
		Confirm(c, "Delete?", "It cannot be undone.", "Keep", "Delete", func() { got = append(got, "deleted") })
		b, ok := c.Focused().(*look.Button)
		if !ok || b.Text != "Keep" {
			t.Fatalf("the dialog opens with the keyboard on %v, want Keep", c.Focused())
		}
		b.TypedKey(&fyne.KeyEvent{Name: k})
		if k == fyne.KeySpace {
			b.TypedRune(' ')
		}
		if len(got) != 0 || c.Overlays().Top() != nil {
			t.Errorf("%s on Keep: %q, dialog shown %v; want it closed, nothing deleted", k, got, c.Overlays().Top() != nil)
		}
	}
}
