package modal

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestKeys: with nothing focused, Escape taps a dialog's first button and
// Return its one button of high importance; a dangerous button is no
// default; a dialog over another takes the keys until it closes, and then
// the window has its own again.
func TestKeys(t *testing.T) {
	w := test.NewTempApp(t).NewWindow("w")
	w.Resize(fyne.NewSize(800, 600))
	c := w.Canvas()
	var got []string
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) { got = append(got, "window "+string(ev.Name)) })
	press := func(k fyne.KeyName) { c.OnTypedKey()(&fyne.KeyEvent{Name: k}) }
	dialog := func(name string) (hide func()) {
		var h func()
		keep := widget.NewButton("Cancel", func() { got = append(got, name+" cancel"); h() })
		do := widget.NewButton("Apply", func() { got = append(got, name+" apply"); h() })
		do.Importance = widget.HighImportance
		h = Show(c, name, widget.NewLabel(name), fyne.NewSize(300, 200), keep, do)
		return h
	}

	dialog("a")
	press(fyne.KeyReturn)
	dialog("a")
	press(fyne.KeyEscape)
	dialog("a")
	dialog("b") // over a
	press(fyne.KeyEscape)
	press(fyne.KeyReturn)
	press(fyne.KeyEscape) // no dialog: the window's
	Confirm(c, "Delete?", "It cannot be undone.", "Keep", "Delete", func() { got = append(got, "deleted") })
	press(fyne.KeyReturn) // not the red button
	press(fyne.KeyEscape)
	Tell(c, "Done", "It is done.", func() { got = append(got, "told") })
	press(fyne.KeyReturn)

	want := []string{"a apply", "a cancel", "b cancel", "a apply", "window Escape", "window Return", "told"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
	if c.Overlays().Top() != nil {
		t.Error("a dialog is still open")
	}
}
