package keys

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
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

// TestTabs moves between a window's tabs with each key, from an Entry as
// from the window, round the ends.
func TestTabs(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	k := Close(w, nil)
	e := k.NewEntry()
	second := widget.NewCheck("Keep", nil)
	tabs := container.NewAppTabs(container.NewTabItem("General", e),
		container.NewTabItem("History", container.NewVScroll(widget.NewForm(widget.NewFormItem("Keep", second)))),
		container.NewTabItem("Traffic", widget.NewLabel("t")))
	w.SetContent(tabs)
	k.Tabs(tabs)
	for _, step := range []struct {
		name string
		s    fyne.Shortcut
		want int
	}{
		{"Ctrl+Tab", &desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl}, 1},
		{"Ctrl+Page Down", ctrl(fyne.KeyPageDown), 2},
		{"Ctrl+Tab at the end", &desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl}, 0},
		{"Ctrl+Shift+Tab at the start", &desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift}, 2},
		{"Ctrl+Page Up", ctrl(fyne.KeyPageUp), 1},
	} {
		w.Canvas().Focus(e)
		e.TypedShortcut(step.s) // as the window's canvas gets it with the entry focused
		if got := tabs.SelectedIndex(); got != step.want {
			t.Errorf("%s: tab %d, want %d", step.name, got, step.want)
		}
		if f := w.Canvas().Focused(); f == e && step.want != 0 {
			t.Errorf("%s: the keyboard stays in the entry of the tab now hidden", step.name)
		}
		if step.want == 1 && w.Canvas().Focused() != fyne.Focusable(second) {
			t.Errorf("%s: the keyboard is on %v, want the tab's first control", step.name, w.Canvas().Focused())
		}
	}
}

// TestScroll reads a long text to its end and back by the keys, kept
// within the text.
func TestScroll(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	k := Close(w, nil)
	lines := widget.NewLabel(strings.Repeat("line\n", 200))
	s := container.NewVScroll(lines)
	k.Scroll(s)
	w.SetContent(s)
	w.Resize(fyne.NewSize(300, 300))
	press := func(key fyne.KeyName) { w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: key}) }
	bottom := lines.MinSize().Height - s.Size().Height
	for _, step := range []struct {
		key  fyne.KeyName
		want func(y float32) bool
	}{
		{fyne.KeyDown, func(y float32) bool { return y > 0 && y < 100 }},
		{fyne.KeyPageDown, func(y float32) bool { return y > 200 }},
		{fyne.KeyEnd, func(y float32) bool { return y == bottom }},
		{fyne.KeyPageDown, func(y float32) bool { return y == bottom }},
		{fyne.KeyHome, func(y float32) bool { return y == 0 }},
		{fyne.KeyUp, func(y float32) bool { return y == 0 }},
	} {
		press(step.key)
		if !step.want(s.Offset.Y) {
			t.Errorf("%s: scrolled to %v of %v", step.key, s.Offset.Y, bottom)
		}
	}
}

// TestControlsPassKeys: Escape on a focused check box or drop-down of
// Keys' closes the window, and F1 reaches it, as from an Entry; Space
// still ticks the box.
func TestControlsPassKeys(t *testing.T) {
	test.NewTempApp(t)
	for _, make := range []func(k *Keys) fyne.Focusable{
		func(k *Keys) fyne.Focusable { return k.NewCheck("Notify me", nil) },
		func(k *Keys) fyne.Focusable { return k.NewSelect([]string{"Light", "Dark"}, nil) },
	} {
		w := test.NewTempWindow(t, nil)
		closed, helped := 0, 0
		w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
			if ev.Name == fyne.KeyF1 {
				helped++
			}
		})
		k := Close(w, func() { closed++ })
		c := make(k)
		w.SetContent(c.(fyne.CanvasObject))
		w.Canvas().Focus(c)
		c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyF1})
		c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if closed != 1 || helped != 1 {
			t.Errorf("%T: closed %d, F1 reached the window %d times; want 1, 1", c, closed, helped)
		}
	}
	w := test.NewTempWindow(t, nil)
	c := Close(w, nil).NewCheck("Notify me", nil)
	w.SetContent(c)
	c.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	c.TypedRune(' ') // as the desktop sends Space
	if !c.Checked {
		t.Error("Space did not tick the box")
	}
}

// TestMultiLineEntryLetsTabGo: Tab leaves a multi-line Entry for the next
// control, as it leaves a single-line one; Fyne's would type it.
func TestMultiLineEntryLetsTabGo(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	k := Close(w, nil)
	patterns, next := k.NewMultiLineEntry(), k.NewCheck("Of every server", nil)
	w.SetContent(container.NewVBox(patterns, next))
	w.Canvas().Focus(patterns)
	if patterns.AcceptsTab() {
		t.Fatal("the multi-line entry takes Tab as text")
	}
	w.Canvas().FocusNext() // what the window does with a Tab the focused widget does not take
	if w.Canvas().Focused() != fyne.Focusable(next) || patterns.Text != "" {
		t.Errorf("after Tab the keyboard is on %T and the entry holds %q", w.Canvas().Focused(), patterns.Text)
	}
}

// TestBorderTabOrder: Tab goes through a Border's sides in reading order,
// the search above a list before the list.
func TestBorderTabOrder(t *testing.T) {
	test.NewTempApp(t)
	search, list, save := widget.NewEntry(), widget.NewEntry(), widget.NewButton("Save", nil)
	w := test.NewTempWindow(t, Border(search, save, nil, nil, list))
	var order []fyne.Focusable
	for range 3 {
		w.Canvas().FocusNext()
		order = append(order, w.Canvas().Focused())
	}
	if !slices.Equal(order, []fyne.Focusable{search, list, save}) {
		t.Errorf("Tab went %v, want the search, the list, Save", order)
	}
}
