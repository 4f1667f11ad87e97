package look

import (
	"image/color"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y/a11ytest"
)

// TestButtonFocusRing renders a Button of each importance, focused and
// not, and measures the pixels that change: where the ring is drawn, a
// focused button must differ from an unfocused one by 3:1 (WCAG 2.2 SC
// 2.4.13), which Fyne's tint alone does not on a coloured button.
func TestButtonFocusRing(t *testing.T) {
	a := test.NewTempApp(t)
	importances := []struct {
		name string
		i    widget.Importance
	}{{"medium", widget.MediumImportance}, {"high", widget.HighImportance}, {"danger", widget.DangerImportance}, {"low", widget.LowImportance}}
	inVariants(t, a, func(t *testing.T, th fyne.Theme, v fyne.ThemeVariant, back color.Color) {
		for _, imp := range importances {
			t.Run(imp.name, func(t *testing.T) {
				b := NewButton("Accept", nil, nil)
				b.Importance = imp.i
				w := test.NewWindow(b)
				defer w.Close()
				w.Resize(fyne.NewSize(200, 60))
				fill, ring := parts(t, b)
				if ring.Visible() {
					t.Fatal("the ring shows before the button has the keyboard")
				}
				unfocused := over(back, fill.FillColor)

				w.Canvas().Focus(b)
				fill, ring = parts(t, b)
				if !ring.Visible() || ring.StrokeWidth < 2 {
					t.Fatalf("focused: ring shown %v, %v px wide", ring.Visible(), ring.StrokeWidth)
				}
				if r := ratio(over(over(back, fill.FillColor), ring.StrokeColor), unfocused); r < 3 {
					t.Errorf("the ring differs from the unfocused button by %.2f:1, want 3:1", r)
				}
				if ring.Position().X < 0 || ring.Position().Y < 0 ||
					ring.Position().X+ring.Size().Width > b.Size().Width || ring.Position().Y+ring.Size().Height > b.Size().Height {
					t.Errorf("the ring at %v, %v leaves the button's %v", ring.Position(), ring.Size(), b.Size())
				}

				w.Canvas().Unfocus()
				if _, ring = parts(t, b); ring.Visible() {
					t.Error("the ring stays once the keyboard has gone")
				}
				w.Canvas().Focus(b)
				b.Disable()
				if _, ring = parts(t, b); ring.Visible() {
					t.Error("a disabled button shows the ring")
				}
			})
		}
	})
}

// parts finds a rendered button's fill (its first rectangle) and its ring
// (the stroked one).
func parts(t *testing.T, b *Button) (fill, ring *canvas.Rectangle) {
	t.Helper()
	for _, o := range test.WidgetRenderer(b).Objects() {
		if r, ok := o.(*canvas.Rectangle); ok {
			switch {
			case fill == nil:
				fill = r
			case r.StrokeWidth > 0:
				ring = r
			}
		}
	}
	if fill == nil || ring == nil {
		t.Fatalf("no fill (%v) or ring (%v) among the button's objects", fill, ring)
	}
	return fill, ring
}

func TestAccessible(t *testing.T) {
	test.NewTempApp(t)
	d := NewDisclosure("Developer options", widget.NewLabel("MCP revision"))
	a11ytest.Check(t, ".", NewButton("Accept", nil, nil), d, d.title)
}

// TestButtonSpace types Space as the desktop sends it, its press then its
// character, each to whatever has the keyboard then: the button presses
// once, on the character, so a press that moves the keyboard (a dialog
// closing onto a field) hands no space to the field; and it keeps the
// keyboard where the press leaves it.
func TestButtonSpace(t *testing.T) {
	test.NewTempApp(t)
	field := widget.NewEntry()
	presses := 0
	var w fyne.Window
	onto := NewButton("Keep editing", nil, func() { presses++; w.Canvas().Focus(field) })
	stay := NewButton("Copy link", nil, func() { presses++ })
	w = test.NewWindow(container.NewVBox(field, onto, stay))
	defer w.Close()
	space := func() {
		w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
		if presses != 0 {
			t.Fatal("pressed on the key, before its character")
		}
		w.Canvas().Focused().TypedRune(' ')
	}

	w.Canvas().Focus(onto)
	space()
	if presses != 1 || field.Text != "" || w.Canvas().Focused() != field {
		t.Errorf("pressed %d times; the field it focused holds %q", presses, field.Text)
	}
	presses = 0
	w.Canvas().Focus(stay)
	space()
	if presses != 1 || w.Canvas().Focused() != stay {
		t.Errorf("pressed %d times; the keyboard is on %v, want the button still", presses, w.Canvas().Focused())
	}
}

// stepper is a widget that embeds a Button, as the app's − and + do.
type stepper struct {
	Button
	title string
}

// TestButtonPassesWindowKeys: Escape, F1 and the page keys on a focused
// button, or a widget embedding one, reach the window's own keys, as with
// nothing focused.
func TestButtonPassesWindowKeys(t *testing.T) {
	test.NewTempApp(t)
	s := &stepper{title: "One more"}
	s.ExtendBaseWidget(s)
	for _, b := range []fyne.Focusable{NewButton("Save", nil, nil), s} {
		w := test.NewWindow(b.(fyne.CanvasObject))
		var got []fyne.KeyName
		w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) { got = append(got, ev.Name) })
		w.Canvas().Focus(b)
		for _, k := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyF1, fyne.KeyA, fyne.KeyPageDown, fyne.KeyEnd, fyne.KeyDown} {
			w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: k})
		}
		if want := []fyne.KeyName{fyne.KeyEscape, fyne.KeyF1, fyne.KeyPageDown, fyne.KeyEnd}; !slices.Equal(got, want) {
			t.Errorf("%T: the window got %v, want %v", b, got, want)
		}
		w.Close()
	}
}

// TestButtonHiddenByItsPress: a button whose press hides it lets go of
// the keyboard, so that no key presses it again unseen.
func TestButtonHiddenByItsPress(t *testing.T) {
	test.NewTempApp(t)
	presses := 0
	var b *Button
	b = NewButton("Open link", nil, func() { presses++; b.Hide() })
	w := test.NewWindow(container.NewVBox(b, widget.NewLabel("waiting")))
	defer w.Close()
	w.Canvas().Focus(b)
	b.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if f := w.Canvas().Focused(); f != nil {
		t.Errorf("the keyboard stays on %v, hidden", f)
	}
	if presses != 1 {
		t.Errorf("pressed %d times", presses)
	}
}
