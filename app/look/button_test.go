package look

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
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

func TestButtonAccessible(t *testing.T) {
	test.NewTempApp(t)
	a11ytest.Check(t, ".", NewButton("Accept", nil, nil))
}
