package look

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestDisclosureByKeys opens and closes a Disclosure from the keyboard, as
// a button presses (Enter, Space's character), says whether it is open,
// grows and shrinks with what it holds, and passes Escape to its window.
func TestDisclosureByKeys(t *testing.T) {
	test.NewTempApp(t)
	detail := widget.NewLabel("MCP revision")
	d := NewDisclosure("Developer options", detail)
	w := test.NewWindow(d)
	escaped := 0
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyEscape {
			escaped++
		}
	})
	closed := d.MinSize().Height
	w.Canvas().Focus(d.title)
	for i, press := range []func(){
		func() { d.title.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) },
		func() { d.title.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace}); d.title.TypedRune(' ') },
	} {
		press()
		open := i == 0
		if d.IsOpen() != open || detail.Visible() != open || d.title.AccessibleExpanded() != open {
			t.Errorf("press %d: open %v, detail shown %v, says expanded %v; want %v", i+1, d.IsOpen(), detail.Visible(), d.title.AccessibleExpanded(), open)
		}
		if grew := d.MinSize().Height > closed; grew != open {
			t.Errorf("press %d: height %v against %v closed", i+1, d.MinSize().Height, closed)
		}
		if w.Canvas().Focused() != fyne.Focusable(d.title) {
			t.Errorf("press %d: the keyboard left the title for %T", i+1, w.Canvas().Focused())
		}
	}
	d.title.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if escaped != 1 || d.IsOpen() {
		t.Errorf("Escape reached the window %d times (open %v), want once, changing nothing", escaped, d.IsOpen())
	}
}

// TestDisclosureTabOrder: Tab reaches the title before what it holds.
func TestDisclosureTabOrder(t *testing.T) {
	test.NewTempApp(t)
	before, inside := widget.NewEntry(), widget.NewEntry()
	d := NewDisclosure("Developer options", inside)
	d.Open()
	w := test.NewWindow(container.NewVBox(before, d))
	w.Canvas().Focus(before)
	for _, want := range []fyne.Focusable{d.title, inside} {
		w.Canvas().FocusNext()
		if got := w.Canvas().Focused(); got != want {
			t.Errorf("Tab went to %T, want %T", got, want)
		}
	}
}
