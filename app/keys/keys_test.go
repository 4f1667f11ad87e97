package keys

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

func ctrl(k fyne.KeyName) fyne.Shortcut {
	return &desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault}
}

// TestKeys presses each key with nothing focused, in an Entry, and under
// a dialog: Ctrl+W and Escape close, Ctrl+F focuses the search, F1 in
// the entry reaches the window, and other keys reach what handled them
// before.
func TestKeys(t *testing.T) {
	esc := &fyne.KeyEvent{Name: fyne.KeyEscape}
	tests := []struct {
		name   string
		dialog bool // a dialog is over the window
		press  func(w fyne.Window, e *Entry)
		closed int
		found  bool // the search has the keyboard
		before int  // keys the canvas's earlier handler got
	}{
		{"Escape", false, func(w fyne.Window, _ *Entry) { w.Canvas().OnTypedKey()(esc) }, 1, false, 0},
		{"Escape in the entry", false, func(_ fyne.Window, e *Entry) { e.TypedKey(esc) }, 1, false, 0},
		{"Escape under a dialog", true, func(w fyne.Window, _ *Entry) { w.Canvas().OnTypedKey()(esc) }, 0, false, 1},
		{"Ctrl+W in the entry", false, func(_ fyne.Window, e *Entry) { e.TypedShortcut(ctrl(fyne.KeyW)) }, 1, false, 0},
		{"Ctrl+F in the entry", false, func(_ fyne.Window, e *Entry) { e.TypedShortcut(ctrl(fyne.KeyF)) }, 0, true, 0},
		{"F1 in the entry, to the window", false, func(_ fyne.Window, e *Entry) { e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyF1}) }, 0, false, 1},
		{"another key", false, func(w fyne.Window, _ *Entry) { w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyF5}) }, 0, false, 1},
		{"another shortcut in the entry", false, func(_ fyne.Window, e *Entry) { e.TypedShortcut(&fyne.ShortcutSelectAll{}) }, 0, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test.NewTempApp(t)
			w := test.NewTempWindow(t, nil)
			before := 0
			w.Canvas().SetOnTypedKey(func(*fyne.KeyEvent) { before++ })
			closed := 0
			k := Close(w, func() { closed++ })
			e := k.NewEntry()
			k.Find(e)
			e.SetText("typed")
			w.SetContent(e)
			if tt.dialog {
				widget.NewModalPopUp(widget.NewLabel("a question"), w.Canvas()).Show()
			}
			tt.press(w, e)
			if closed != tt.closed || (w.Canvas().Focused() == e) != tt.found || before != tt.before {
				t.Errorf("closed %d times, search focused %v, earlier handler %d; want %d, %v, %d",
					closed, w.Canvas().Focused() == e, before, tt.closed, tt.found, tt.before)
			}
			if e.Text != "typed" {
				t.Errorf("the entry holds %q", e.Text)
			}
		})
	}
}
