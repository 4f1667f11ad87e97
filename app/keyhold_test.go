package app

import (
	"context"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TestKeyHold checks the hold of a request window the app opened, on a
// clock the test moves: keys typed before the person takes the window
// reach no field, nothing answers within the guard time, the window
// manager's focus at once changes nothing, the person switching to the
// window later gives the keyboard to the form, and a click takes it too;
// a window that had the keyboard from the start says how to start typing,
// and StartKey does.
func TestKeyHold(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	clock := func() time.Time { return now }
	var closed time.Time // when another request window closed
	closedAt := func() time.Time { return closed }
	setup := func() (fyne.Window, *widget.Entry, *keyHold) {
		test.NewTempApp(t)
		field := widget.NewEntry()
		w := test.NewTempWindow(t, field)
		k := holdKeys(w, byApp, clock, closedAt, GuardTime, func() { w.Canvas().Focus(field) }, nil)
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

	t.Run("given the keyboard as another request window closes", func(t *testing.T) {
		w, field, k := setup()
		t.Cleanup(func() { now, closed = time.Unix(1_000_000, 0), time.Time{} })
		now = now.Add(5 * time.Second) // long after it appeared, unseen under another
		closed = now                   // the person answered that one: openbox hands this one the keyboard
		now = now.Add(150 * time.Millisecond)
		k.FocusGained()
		typeKeys(w.Canvas(), "\n") // the person's Enter meant for the window that closed
		if field.Text != "" || !k.held() {
			t.Errorf("the window manager's focus after a close ended the hold: field %q, held %v", field.Text, k.held())
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
		k := holdKeys(w, byApp, clock, closedAt, GuardTime, func() { w.Canvas().Focus(field) }, nil)
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

	t.Run("had the keyboard from the start", func(t *testing.T) {
		w, field, k := setup()
		t.Cleanup(func() { now = time.Unix(1_000_000, 0) })
		k.FocusGained() // the window manager focused the new window
		f6 := &fyne.KeyEvent{Name: StartKey}
		k.TypedKey(f6) // within the guard time: meant for another application
		if k.notice.Visible() || !k.held() {
			t.Fatal("a key within the guard time showed the notice or ended the hold")
		}
		now = now.Add(GuardTime)
		typeKeys(w.Canvas(), "git")
		if !k.notice.Visible() || !k.held() || field.Text != "" {
			t.Fatalf("a late key: notice %v, held %v, field %q", k.notice.Visible(), k.held(), field.Text)
		}
		k.TypedKey(f6) // in the same burst: the notice was not read
		if !k.held() {
			t.Fatal("StartKey ended the hold as the notice appeared")
		}
		now = now.Add(GuardTime)
		k.TypedKey(f6)
		typeKeys(w.Canvas(), "Ada")
		if field.Text != "Ada" || k.held() || k.notice.Visible() {
			t.Errorf("after StartKey: field %q, held %v, notice %v", field.Text, k.held(), k.notice.Visible())
		}
	})

	t.Run("clicked after the notice", func(t *testing.T) {
		w, field, k := setup()
		t.Cleanup(func() { now = time.Unix(1_000_000, 0) })
		now = now.Add(GuardTime)
		typeKeys(w.Canvas(), "x")
		w.Canvas().Focus(field) // what the driver does with a click on a field
		if k.held() || k.notice.Visible() {
			t.Errorf("after a click: held %v, notice %v", k.held(), k.notice.Visible())
		}
	})

	t.Run("opened by the person", func(t *testing.T) {
		test.NewTempApp(t)
		w := test.NewTempWindow(t, widget.NewEntry())
		if k := holdKeys(w, byPerson, clock, closedAt, GuardTime, func() {}, nil); k != nil || !k.mayAnswer() {
			t.Error("a window the person opened holds its keys")
		}
	})
}

// TestHeldLineMakesRoom: a request window the app opened grows by the
// held-typing line as it shows, so that the form keeps its room, and
// shrinks back once the person clicks in it.
func TestHeldLineMakesRoom(t *testing.T) {
	h := startOneWindow(t)
	now := time.Now()
	h.ui(func() {
		h.d.guard = GuardTime // the test driver focuses a window as it shows
		h.d.now = func() time.Time { return now }
	})
	h.askForm(context.Background(), "shop", "Your name?")
	r := h.request(0)
	h.ui(func() {
		fw := r.win.(*formWindow)
		before, form := fw.w.Canvas().Size().Height, fw.size.box.Size().Height
		now = now.Add(GuardTime)
		typeKeys(fw.w.Canvas(), "git") // meant for another window
		if !fw.hold.notice.Visible() {
			t.Errorf("no held line after a late key; focus on %T", fw.w.Canvas().Focused()) // not Fatal: this is the UI goroutine
			return
		}
		after := fw.w.Canvas().Size().Height
		if want := before + fw.hold.notice.MinSize().Height + theme.Padding(); after != want {
			t.Errorf("the window is %v tall with the held line, %v without; want %v", after, before, want)
		}
		if got := fw.size.box.Size().Height; got != form {
			t.Errorf("the form is %v tall under the held line, %v without", got, form)
		}
		fw.view.FocusFirst(fw.w.Canvas()) // what the driver does with a click on a field
		if fw.hold.notice.Visible() || fw.w.Canvas().Size().Height != before {
			t.Errorf("after a click: line shown %v, window %v tall, want %v", fw.hold.notice.Visible(), fw.w.Canvas().Size().Height, before)
		}
	})
}

// TestHoldRules checks when the notice shows and StartKey ends the hold,
// on a window that had the keyboard from the start: keys at times after
// it appeared (in guard times), true for StartKey.
func TestHoldRules(t *testing.T) {
	const g = GuardTime
	type key struct {
		at    time.Duration
		start bool
	}
	tests := []struct {
		name       string
		keys       []key
		told, free bool
	}{
		{"keys within the guard time", []key{{0, false}, {g / 2, true}}, false, false},
		{"a late key tells", []key{{g, false}}, true, false},
		{"StartKey first tells only", []key{{g, true}}, true, false},
		{"StartKey soon after the notice", []key{{g, false}, {2*g - 1, true}}, true, false},
		{"StartKey once the notice was seen", []key{{g, false}, {2 * g, true}}, true, true},
		{"other keys later do not start", []key{{g, false}, {5 * g, false}}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shown := time.Unix(1_000_000, 0)
			h := hold{shown: shown, guard: g}
			for _, k := range tt.keys {
				h = h.key(shown.Add(k.at), k.start)
			}
			if told := !h.told.IsZero(); told != tt.told || h.free != tt.free {
				t.Errorf("told %v, free %v; want %v, %v", told, h.free, tt.told, tt.free)
			}
		})
	}
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
