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

// More colour names, short for the table.
const (
	bg        = theme.ColorNameBackground
	overlay   = theme.ColorNameOverlayBackground
	menu      = theme.ColorNameMenuBackground
	header    = theme.ColorNameHeaderBackground
	input     = theme.ColorNameInputBackground
	button    = theme.ColorNameButton
	offButton = theme.ColorNameDisabledButton
	hover     = theme.ColorNameHover
	onDanger  = theme.ColorNameForegroundOnError
	onSuccess = theme.ColorNameForegroundOnSuccess
	onWarning = theme.ColorNameForegroundOnWarning
)

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

// kind says which WCAG 2.2 minimum a pair must meet.
type kind int

const (
	// text is text against what it is drawn on: 4.5:1 (SC 1.4.3).
	text kind = iota
	// nonText is a focus indicator or a control's boundary against its
	// neighbour: 3:1 (SC 1.4.11).
	nonText
)

// minimum is the lowest contrast ratio a pair of this kind may have.
func (k kind) minimum() float64 {
	if k == nonText {
		return 3
	}
	return 4.5
}

// layers is a stack of theme colours: the first is drawn first, each next
// one over it (a hover or focus colour is translucent and blends with what
// is beneath).
type layers []fyne.ThemeColorName

// in composites the stack's colours in th's variant v over an opaque
// starting point.
func (l layers) in(th fyne.Theme, v fyne.ThemeVariant, under color.Color) color.Color {
	c := under
	for _, n := range l {
		c = over(c, th.Color(n, v))
	}
	return c
}

// pair is one colour drawn on another somewhere in Fyne 2.8.1's widgets as
// this app uses them: text on its background, or a focus indicator or
// boundary on its neighbour.
type pair struct {
	fore  layers
	on    layers // on[0] is opaque: a window, dialog or menu background
	kind  kind
	where string // where Fyne 2.8.1 (or the app) draws it
}

// ratio is the pair's contrast in th's variant v.
func (p pair) ratio(th fyne.Theme, v fyne.ThemeVariant) float64 {
	on := p.on.in(th, v, color.Black)
	return ratio(p.fore.in(th, v, on), on)
}

// labelColors are the colours widget.Label draws its text in, one for
// each Importance (widget/label.go:163-178); the app's secondary text
// (hints, "Reported by the server", tool descriptions, states) is
// LowImportance, drawn in the disabled colour.
func labelColors() []fyne.ThemeColorName {
	return []fyne.ThemeColorName{fg, disabled, primary, danger, warning, success}
}

// pairs is every pair of colours whose contrast the app relies on: the one
// place that says which colour Fyne 2.8.1 draws on which.
//
// Not here, as no theme can fix them: a focused List row is drawn in the
// hover colour, and not at all when it is the selected row
// (widget/list.go:697-712, 778), and hover can't reach 3:1 while text on it
// keeps 4.5:1; a focused Selectable label draws nothing until text is
// selected (widget/selectable.go:302-319); a menu shortcut is foreground at
// 20 % alpha (widget/menu_item.go:366-371); the pressed flash is a 0.3 s
// animation (widget/button.go:469-490).
func pairs() []pair {
	var ps []pair
	add := func(k kind, where string, fore, on layers) {
		ps = append(ps, pair{fore: fore, on: on, kind: k, where: where})
	}
	// Where labels (and check, radio and tab text, container/tabs.go:704-721)
	// sit.
	labelSurfaces := []struct {
		on    layers
		where string
	}{
		{layers{bg}, "window background"},
		{layers{overlay}, "dialog and pop-up (widget/popup.go:113, dialog/base.go:193)"},
		{layers{bg, hover}, "hovered or keyboard-highlighted list row (widget/list.go:707, 778)"},
		{layers{bg, selection}, "selected list row (widget/list.go:704)"},
		{layers{header}, "table and rich-text header (widget/richtext_objects.go:653, widget/table.go:1226)"},
	}
	for _, c := range append(labelColors(), link) {
		for _, s := range labelSurfaces {
			add(text, "label text (widget/label.go:163, widget/hyperlink.go:297) on "+s.where, layers{c}, s.on)
		}
	}
	// Forms: hints and errors under a field (widget/form.go:215, 487, 490);
	// the app's hints are LowImportance labels, covered above.
	add(text, "form hint (widget/form.go:215)", layers{hint}, layers{bg})
	add(text, "form hint in a dialog (widget/form.go:215)", layers{hint}, layers{overlay})

	// Entries: text, placeholder and disabled text on the input fill
	// (widget/entry.go:181, 1267-1292); selected text (widget/selectable.go:307).
	for _, c := range []fyne.ThemeColorName{fg, hint, disabled} {
		add(text, "entry text (widget/entry.go:1267-1292)", layers{c}, layers{bg, input})
		add(text, "entry text in a dialog (widget/entry.go:1267-1292)", layers{c}, layers{overlay, input})
	}
	add(text, "selected entry text (widget/selectable.go:307)", layers{fg}, layers{bg, input, selection})

	// Select: its fill is the input colour, hover or focus drawn straight
	// on the window (widget/select.go:427-438); its text, placeholder too,
	// is foreground, or disabled when it is (select.go:102, 455-461).
	add(text, "select text (widget/select.go:437, 460)", layers{fg}, layers{bg, input})
	add(text, "select text hovered (widget/select.go:435)", layers{fg}, layers{bg, hover})
	add(text, "select text focused (widget/select.go:432)", layers{fg}, layers{bg, focus})
	add(text, "select disabled (widget/select.go:102, 429, 458)", layers{disabled}, layers{bg, offButton})

	// Buttons (widget/button.go:338-404): the fill is the importance's
	// colour with hover or focus blended in; LowImportance has no fill
	// until hovered or focused, then the button colour.
	for _, under := range []fyne.ThemeColorName{bg, overlay} {
		for _, b := range []struct{ text, fill fyne.ThemeColorName }{
			{fg, button}, {onPrimary, primary}, {onDanger, danger}, {onSuccess, success}, {onWarning, warning},
		} {
			add(text, "button (widget/button.go:386-403)", layers{b.text}, layers{under, b.fill})
			add(text, "button hovered (widget/button.go:382)", layers{b.text}, layers{under, b.fill, hover})
			add(text, "button focused (widget/button.go:380)", layers{b.text}, layers{under, b.fill, focus})
		}
		add(text, "LowImportance button (widget/button.go:393)", layers{fg}, layers{under})
		add(text, "disabled button (widget/button.go:374-377)", layers{disabled}, layers{under, offButton})
		add(text, "disabled LowImportance button (widget/button.go:374)", layers{disabled}, layers{under})
	}

	// Menus, also a select's pop-up: the active item is filled with the
	// focus colour (widget/menu_item.go:295, 356-361).
	add(text, "menu item (widget/menu_item.go:361)", layers{fg}, layers{menu})
	add(text, "menu item active (widget/menu_item.go:295)", layers{fg}, layers{menu, focus})
	add(text, "menu item disabled (widget/menu_item.go:356)", layers{disabled}, layers{menu})

	// Focus indicators and control boundaries (SC 1.4.11).
	for _, under := range []fyne.ThemeColorName{bg, overlay} {
		add(nonText, "button focus fill (widget/button.go:380)", layers{button, focus}, layers{under})
		add(nonText, "HighImportance button (widget/button.go:391)", layers{primary}, layers{under})
		add(nonText, "HighImportance button focused (widget/button.go:380, 391)", layers{primary, focus}, layers{under})
		add(nonText, "check, radio and hyperlink focus (widget/check.go:380, radio_item.go:201, hyperlink.go:362)", layers{focus}, layers{under})
		add(nonText, "select focus fill (widget/select.go:432)", layers{focus}, layers{under})
		add(nonText, "entry focus border (widget/entry.go:1714)", layers{primary}, layers{under})
		add(nonText, "entry focus border on its fill (widget/entry.go:1714)", layers{primary}, layers{under, input})
		add(nonText, "entry and check box border (widget/entry.go:1719, check.go:349)", layers{border}, layers{under})
		add(nonText, "entry border on its fill (widget/entry.go:1719)", layers{border}, layers{under, input})
		add(nonText, "check box in its focus circle (widget/check.go:351, 380)", layers{input}, layers{under, focus})
		add(nonText, "check box border in its hover circle (widget/check.go:349, 385)", layers{border}, layers{under, hover})
	}
	add(nonText, "menu item active (widget/menu_item.go:295)", layers{focus}, layers{menu})
	return ps
}
