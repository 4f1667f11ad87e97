package app

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestKeyHold checks the hold of a request window the app opened, on a
// clock the test moves: keys typed before the person takes the window
// reach no field, nothing answers within the guard time, the window
// manager's focus at once changes nothing, the person switching to the
// window later gives the keyboard to the form, and a click takes it too.
func TestKeyHold(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	clock := func() time.Time { return now }
	setup := func() (fyne.Window, *widget.Entry, *keyHold) {
		test.NewTempApp(t)
		field := widget.NewEntry()
		w := test.NewTempWindow(t, field)
		k := holdKeys(w, byApp, clock, GuardTime, func() { w.Canvas().Focus(field) })
		return w, field, k
	}

	t.Run("keys for another app", func(t *testing.T) {
		w, field, k := setup()
		typeKeys(w.Canvas(), "status\t\ngit")
		if field.Text != "" || w.Canvas().Focused() != fyne.Focusable(k) {
			t.Errorf("keys reached the form: %q, focus on %T", field.Text, w.Canvas().Focused())
		}
		if k.mayAnswer() {
			t.Error("an answer counts at once")
		}
		k.FocusGained() // the window manager focused the new window
		if !k.held() {
			t.Error("the window manager's focus at once ended the hold")
		}
	})

	t.Run("switched to later", func(t *testing.T) {
		w, field, k := setup()
		t.Cleanup(func() { now = time.Unix(1_000_000, 0) })
		now = now.Add(GuardTime)
		if !k.mayAnswer() {
			t.Error("no answer counts after the guard time")
		}
		k.FocusGained() // the person switched to the window
		typeKeys(w.Canvas(), "Ada")
		if field.Text != "Ada" || k.held() || !k.Disabled() {
			t.Errorf("after switching: field %q, held %v, a Tab stop %v", field.Text, k.held(), !k.Disabled())
		}
	})

	t.Run("clicked", func(t *testing.T) {
		w, field, k := setup()
		w.Canvas().Focus(field) // what the driver does with a click on a field
		typeKeys(w.Canvas(), "Ada")
		if field.Text != "Ada" || k.held() || !k.Disabled() {
			t.Errorf("after a click: field %q, held %v, a Tab stop %v", field.Text, k.held(), !k.Disabled())
		}
		if k.mayAnswer() {
			t.Error("a click within the guard time answers")
		}
	})

	t.Run("clicked on blank space", func(t *testing.T) {
		test.NewTempApp(t)
		field := widget.NewEntry()
		w := test.NewTempWindow(t, container.NewVBox(widget.NewLabel("Your name?"), field))
		w.Resize(fyne.NewSize(300, 200))
		k := holdKeys(w, byApp, clock, GuardTime, func() { w.Canvas().Focus(field) })
		k.FocusGained() // the click brought the window forward, within the guard time
		var escaped bool
		w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) { escaped = escaped || ev.Name == fyne.KeyEscape })
		test.TapCanvas(w.Canvas(), fyne.NewPos(150, 190)) // below the field: nothing there takes a click
		esc := &fyne.KeyEvent{Name: fyne.KeyEscape}
		if f := w.Canvas().Focused(); f != nil { // as the driver routes a key
			f.TypedKey(esc)
		} else {
			w.Canvas().OnTypedKey()(esc)
		}
		if k.held() || !k.Disabled() || !escaped || field.Text != "" {
			t.Errorf("after a click on blank space: held %v, a Tab stop %v, Escape seen %v, field %q", k.held(), !k.Disabled(), escaped, field.Text)
		}
		if k.mayAnswer() {
			t.Error("a click within the guard time answers")
		}
	})

	t.Run("opened by the person", func(t *testing.T) {
		test.NewTempApp(t)
		w := test.NewTempWindow(t, widget.NewEntry())
		if k := holdKeys(w, byPerson, clock, GuardTime, func() {}); k != nil || !k.mayAnswer() {
			t.Error("a window the person opened holds its keys")
		}
	})
}

// typeKeys types as the desktop driver delivers keys: to the focused
// object, else to the canvas; Tab to an object that accepts it, else it
// moves the focus; Enter as a key.
func typeKeys(c fyne.Canvas, s string) {
	for _, r := range s {
		f := c.Focused()
		switch r {
		case '\t':
			if t, ok := f.(fyne.Tabbable); ok && t.AcceptsTab() {
				f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyTab})
			} else {
				c.FocusNext()
			}
		case '\n':
			if f != nil {
				f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
			} else if h := c.OnTypedKey(); h != nil {
				h(&fyne.KeyEvent{Name: fyne.KeyReturn})
			}
		default:
			if f != nil {
				f.TypedRune(r)
			} else if h := c.OnTypedRune(); h != nil {
				h(r)
			}
		}
	}
}
