package look

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

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

// Colour names, short for the table.
const (
	bg        = theme.ColorNameBackground
	overlay   = theme.ColorNameOverlayBackground
	menu      = theme.ColorNameMenuBackground
	header    = theme.ColorNameHeaderBackground
	input     = theme.ColorNameInputBackground
	border    = theme.ColorNameInputBorder
	button    = theme.ColorNameButton
	offButton = theme.ColorNameDisabledButton
	hover     = theme.ColorNameHover
	focus     = theme.ColorNameFocus
	selection = theme.ColorNameSelection
	fg        = theme.ColorNameForeground
	disabled  = theme.ColorNameDisabled
	hint      = theme.ColorNamePlaceHolder
	primary   = theme.ColorNamePrimary
	link      = theme.ColorNameHyperlink
	danger    = theme.ColorNameError
	warning   = theme.ColorNameWarning
	success   = theme.ColorNameSuccess
	onPrimary = theme.ColorNameForegroundOnPrimary
	onDanger  = theme.ColorNameForegroundOnError
	onSuccess = theme.ColorNameForegroundOnSuccess
	onWarning = theme.ColorNameForegroundOnWarning
)

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
