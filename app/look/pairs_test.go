package look

import (
	"fmt"
	"image/color"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

var variants = []struct {
	name string
	v    fyne.ThemeVariant
}{{"light", theme.VariantLight}, {"dark", theme.VariantDark}}

// TestPairsReadable computes every listed pair's contrast from the theme's
// own colours, in both variants.
func TestPairsReadable(t *testing.T) {
	test.NewTempApp(t)
	th := New()
	for _, p := range pairs() {
		for _, v := range variants {
			name := fmt.Sprintf("%s/%v_on_%v/%s", v.name, p.fore, p.on, p.where)
			t.Run(name, func(t *testing.T) {
				r := p.ratio(th, v.v)
				if r < p.kind.minimum() {
					t.Errorf("contrast %.2f:1, want at least %.1f:1", r, p.kind.minimum())
				}
				t.Logf("%.2f:1", r)
			})
		}
	}
}

// fixedVariant is the theme in one variant whatever the app asks, for
// rendering widgets in each variant under the test driver.
type fixedVariant struct {
	fyne.Theme
	v fyne.ThemeVariant
}

func (f fixedVariant) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return f.Theme.Color(n, f.v)
}

// drawn is a widget's text colour and the fill behind it as rendered: the
// first rectangle of its renderer, or nothing for a bare label.
func drawn(t *testing.T, w fyne.Widget) (fyne.ThemeColorName, color.Color) {
	t.Helper()
	var fore fyne.ThemeColorName
	var fill color.Color = color.Transparent
	haveFill := false
	for _, o := range test.WidgetRenderer(w).Objects() {
		switch o := o.(type) {
		case *canvas.Rectangle:
			if !haveFill {
				fill, haveFill = o.FillColor, true
			}
		case *widget.RichText:
			fore = o.Segments[0].(*widget.TextSegment).Style.ColorName
		}
	}
	if fore == "" {
		t.Fatalf("%T draws no rich text", w)
	}
	return fore, fill
}

// TestWidgetsDrawListedPairs renders the widgets the app uses, in every
// importance and state, and checks that each text colour and the fill it
// sits on is a text pair of the table: so the table, not a reading of
// Fyne's code, is what the contrast test covers.
func TestWidgetsDrawListedPairs(t *testing.T) {
	a := test.NewTempApp(t)
	importances := map[string]widget.Importance{
		"medium": widget.MediumImportance, "low": widget.LowImportance, "high": widget.HighImportance,
		"danger": widget.DangerImportance, "warning": widget.WarningImportance, "success": widget.SuccessImportance,
	}
	type state struct {
		name string
		set  func(fyne.Widget)
	}
	states := []state{
		{"normal", func(fyne.Widget) {}},
		{"hovered", func(w fyne.Widget) { w.(desktop.Hoverable).MouseIn(&desktop.MouseEvent{}) }},
		{"focused", func(w fyne.Widget) { w.(fyne.Focusable).FocusGained() }},
		{"disabled", func(w fyne.Widget) { w.(fyne.Disableable).Disable() }},
	}
	var cases []struct {
		name  string
		build func() fyne.Widget
	}
	add := func(name string, build func() fyne.Widget) {
		cases = append(cases, struct {
			name  string
			build func() fyne.Widget
		}{name, build})
	}
	for in, i := range importances {
		add("label/"+in, func() fyne.Widget { l := widget.NewLabel("Reported by the server"); l.Importance = i; return l })
		for _, s := range states {
			add("button/"+in+"/"+s.name, func() fyne.Widget {
				b := widget.NewButton("Accept", nil)
				b.Importance = i
				s.set(b)
				return b
			})
		}
	}
	for _, s := range states {
		add("select/"+s.name, func() fyne.Widget { sel := widget.NewSelect([]string{"a"}, nil); s.set(sel); return sel })
		add("select/chosen/"+s.name, func() fyne.Widget {
			sel := widget.NewSelect([]string{"a"}, nil)
			sel.SetSelected("a")
			s.set(sel)
			return sel
		})
	}
	inVariants(t, a, func(t *testing.T, th fyne.Theme, v fyne.ThemeVariant, back color.Color) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				w := c.build()
				test.NewWindow(w)
				fore, fill := drawn(t, w)
				on := over(back, fill)
				for _, p := range pairs() {
					if p.kind == text && len(p.fore) == 1 && p.fore[0] == fore && p.on[0] == bg && near(p.on.in(th, v, color.Black), on) {
						return
					}
				}
				t.Errorf("%s text on %v is in no pair of the table", fore, color.NRGBAModel.Convert(on))
			})
		}
	})
}

// inVariants runs f under a's theme set to each variant in turn, with
// that variant's window background.
func inVariants(t *testing.T, a fyne.App, f func(t *testing.T, th fyne.Theme, v fyne.ThemeVariant, back color.Color)) {
	for _, v := range variants {
		th := fixedVariant{New(), v.v}
		a.Settings().SetTheme(th)
		t.Run(v.name, func(t *testing.T) { f(t, th, v.v, th.Color(bg, v.v)) })
	}
}

// TestAppTextColoursListed checks the colours the app's own code names for
// text and status lights: each is a text pair on the window background.
func TestAppTextColoursListed(t *testing.T) {
	known := map[fyne.ThemeColorName]string{
		theme.ColorNamePrimary:  "a link's domain (app/link_window.go)",
		theme.ColorNameSuccess:  "a server's status light (app/serversview/rows.go)",
		theme.ColorNameWarning:  "a server's status light (app/serversview/rows.go)",
		theme.ColorNameError:    "a server's status light (app/serversview/rows.go)",
		theme.ColorNameDisabled: "a server's status light (app/serversview/rows.go)",
	}
	for _, c := range labelColors() {
		known[c] = "a label's importance (widget/label.go:163)"
	}
	for n, where := range known {
		t.Run(string(n), func(t *testing.T) {
			for _, p := range pairs() {
				if p.kind == text && len(p.fore) == 1 && p.fore[0] == n && len(p.on) == 1 && p.on[0] == bg {
					return
				}
			}
			t.Errorf("%s, used for %s, has no pair on the background", n, where)
		})
	}
}

// TestPairsResolve checks that every colour a pair names is one the theme
// draws, in both variants, and that what a pair sits on starts opaque: a
// name the theme does not know comes back transparent and an unknown
// bottom would be measured against black, and either would give a figure
// no window shows.
func TestPairsResolve(t *testing.T) {
	th := New()
	for i, p := range pairs() {
		if len(p.fore) == 0 || len(p.on) == 0 || p.where == "" {
			t.Errorf("pair %d (%v on %v, %q) is incomplete", i, p.fore, p.on, p.where)
			continue
		}
		for _, v := range variants {
			for _, n := range append(slices.Clone(p.fore), p.on...) {
				if _, _, _, a := th.Color(n, v.v).RGBA(); a == 0 {
					t.Errorf("%s: %s is transparent in the %s variant (%s)", p.where, n, v.name, p.fore)
				}
			}
			if _, _, _, a := th.Color(p.on[0], v.v).RGBA(); a != 0xffff {
				t.Errorf("%s: %s, what %v sits on, is not opaque in the %s variant", p.where, p.on[0], p.fore, v.name)
			}
		}
	}
}

// TestFocusDrawnAsListed renders focused widgets and checks that the
// indicator each draws is a nonText pair of the table, with the focus
// colour, on the background.
func TestFocusDrawnAsListed(t *testing.T) {
	a := test.NewTempApp(t)
	first := func(t *testing.T, w fyne.Widget, pick func(fyne.CanvasObject) (color.Color, bool)) color.Color {
		t.Helper()
		for _, o := range test.WidgetRenderer(w).Objects() {
			if c, ok := pick(o); ok {
				return c
			}
		}
		t.Fatalf("%T draws no focus indicator", w)
		return nil
	}
	rect := func(o fyne.CanvasObject) (color.Color, bool) {
		r, ok := o.(*canvas.Rectangle)
		if !ok {
			return nil, false
		}
		return r.FillColor, true
	}
	circle := func(o fyne.CanvasObject) (color.Color, bool) {
		c, ok := o.(*canvas.Circle)
		if !ok {
			return nil, false
		}
		return c.FillColor, true
	}
	cases := []struct {
		name  string
		build func() fyne.Focusable
		pick  func(fyne.CanvasObject) (color.Color, bool)
	}{
		{"button", func() fyne.Focusable { return widget.NewButton("Decline", nil) }, rect},
		{"low importance button", func() fyne.Focusable {
			b := widget.NewButton("Cancel", nil)
			b.Importance = widget.LowImportance
			return b
		}, rect},
		{"high importance button", func() fyne.Focusable {
			b := widget.NewButton("Accept", nil)
			b.Importance = widget.HighImportance
			return b
		}, rect},
		{"select", func() fyne.Focusable { return widget.NewSelect([]string{"a"}, nil) }, rect},
		{"check", func() fyne.Focusable { return widget.NewCheck("Confirm", nil) }, circle},
	}
	inVariants(t, a, func(t *testing.T, th fyne.Theme, v fyne.ThemeVariant, back color.Color) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				w := c.build()
				test.NewWindow(w.(fyne.CanvasObject))
				w.FocusGained()
				got := over(back, first(t, w.(fyne.Widget), c.pick))
				for _, p := range pairs() {
					if p.kind == nonText && slices.Contains(p.fore, focus) && len(p.on) == 1 && p.on[0] == bg && near(p.fore.in(th, v, back), got) {
						return
					}
				}
				t.Errorf("focus drawn as %v is in no nonText pair on the background", color.NRGBAModel.Convert(got))
			})
		}
	})
}
