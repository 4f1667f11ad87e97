package look

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Kind says which WCAG 2.2 minimum a pair must meet.
type Kind int

const (
	// Text is text against what it is drawn on: 4.5:1 (SC 1.4.3).
	Text Kind = iota
	// NonText is a focus indicator or a control's boundary against its
	// neighbour: 3:1 (SC 1.4.11).
	NonText
)

// Min is the lowest contrast ratio a pair of this kind may have.
func (k Kind) Min() float64 {
	if k == NonText {
		return 3
	}
	return 4.5
}

// Layers is a stack of theme colours: the first is drawn first, each next
// one over it (a hover or focus colour is translucent and blends with what
// is beneath).
type Layers []fyne.ThemeColorName

// In composites the stack's colours in th's variant v over an opaque
// starting point.
func (l Layers) In(th fyne.Theme, v fyne.ThemeVariant, under color.Color) color.Color {
	c := under
	for _, n := range l {
		c = Over(c, th.Color(n, v))
	}
	return c
}

// Pair is one colour drawn on another somewhere in Fyne 2.8.1's widgets as
// this app uses them: text on its background, or a focus indicator or
// boundary on its neighbour.
type Pair struct {
	Fore  Layers
	On    Layers // On[0] is opaque: a window, dialog or menu background
	Kind  Kind
	Where string // where Fyne 2.8.1 (or the app) draws it
}

// Ratio is the pair's contrast in th's variant v.
func (p Pair) Ratio(th fyne.Theme, v fyne.ThemeVariant) float64 {
	on := p.On.In(th, v, color.Black)
	return Ratio(p.Fore.In(th, v, on), on)
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

// LabelColors are the colours widget.Label draws its text in, one for
// each Importance (widget/label.go:163-178); the app's secondary text
// (hints, "Reported by the server", tool descriptions, states) is
// LowImportance, drawn in the disabled colour.
func LabelColors() []fyne.ThemeColorName {
	return []fyne.ThemeColorName{fg, disabled, primary, danger, warning, success}
}

// Pairs is every pair of colours whose contrast the app relies on: the one
// place that says which colour Fyne 2.8.1 draws on which.
//
// Not here, as no theme can fix them: a focused List row is drawn in the
// hover colour, and not at all when it is the selected row
// (widget/list.go:697-712, 778), and hover can't reach 3:1 while text on it
// keeps 4.5:1; a focused Selectable label draws nothing until text is
// selected (widget/selectable.go:302-319); a menu shortcut is foreground at
// 20 % alpha (widget/menu_item.go:366-371); the pressed flash is a 0.3 s
// animation (widget/button.go:469-490).
func Pairs() []Pair {
	var ps []Pair
	add := func(k Kind, where string, fore, on Layers) {
		ps = append(ps, Pair{Fore: fore, On: on, Kind: k, Where: where})
	}
	// Where labels (and check, radio and tab text, container/tabs.go:704-721)
	// sit.
	labelSurfaces := []struct {
		on    Layers
		where string
	}{
		{Layers{bg}, "window background"},
		{Layers{overlay}, "dialog and pop-up (widget/popup.go:113, dialog/base.go:193)"},
		{Layers{bg, hover}, "hovered or keyboard-highlighted list row (widget/list.go:707, 778)"},
		{Layers{bg, selection}, "selected list row (widget/list.go:704)"},
		{Layers{header}, "table and rich-text header (widget/richtext_objects.go:653, widget/table.go:1226)"},
	}
	for _, c := range append(LabelColors(), link) {
		for _, s := range labelSurfaces {
			add(Text, "label text (widget/label.go:163, widget/hyperlink.go:297) on "+s.where, Layers{c}, s.on)
		}
	}
	// Forms: hints and errors under a field (widget/form.go:215, 487, 490);
	// the app's hints are LowImportance labels, covered above.
	add(Text, "form hint (widget/form.go:215)", Layers{hint}, Layers{bg})
	add(Text, "form hint in a dialog (widget/form.go:215)", Layers{hint}, Layers{overlay})

	// Entries: text, placeholder and disabled text on the input fill
	// (widget/entry.go:181, 1267-1292); selected text (widget/selectable.go:307).
	for _, c := range []fyne.ThemeColorName{fg, hint, disabled} {
		add(Text, "entry text (widget/entry.go:1267-1292)", Layers{c}, Layers{bg, input})
		add(Text, "entry text in a dialog (widget/entry.go:1267-1292)", Layers{c}, Layers{overlay, input})
	}
	add(Text, "selected entry text (widget/selectable.go:307)", Layers{fg}, Layers{bg, input, selection})

	// Select: its fill is the input colour, hover or focus drawn straight
	// on the window (widget/select.go:427-438); its text, placeholder too,
	// is foreground, or disabled when it is (select.go:102, 455-461).
	add(Text, "select text (widget/select.go:437, 460)", Layers{fg}, Layers{bg, input})
	add(Text, "select text hovered (widget/select.go:435)", Layers{fg}, Layers{bg, hover})
	add(Text, "select text focused (widget/select.go:432)", Layers{fg}, Layers{bg, focus})
	add(Text, "select disabled (widget/select.go:102, 429, 458)", Layers{disabled}, Layers{bg, offButton})

	// Buttons (widget/button.go:338-404): the fill is the importance's
	// colour with hover or focus blended in; LowImportance has no fill
	// until hovered or focused, then the button colour.
	for _, under := range []fyne.ThemeColorName{bg, overlay} {
		for _, b := range []struct{ text, fill fyne.ThemeColorName }{
			{fg, button}, {onPrimary, primary}, {onDanger, danger}, {onSuccess, success}, {onWarning, warning},
		} {
			add(Text, "button (widget/button.go:386-403)", Layers{b.text}, Layers{under, b.fill})
			add(Text, "button hovered (widget/button.go:382)", Layers{b.text}, Layers{under, b.fill, hover})
			add(Text, "button focused (widget/button.go:380)", Layers{b.text}, Layers{under, b.fill, focus})
		}
		add(Text, "LowImportance button (widget/button.go:393)", Layers{fg}, Layers{under})
		add(Text, "disabled button (widget/button.go:374-377)", Layers{disabled}, Layers{under, offButton})
		add(Text, "disabled LowImportance button (widget/button.go:374)", Layers{disabled}, Layers{under})
	}

	// Menus, also a select's pop-up: the active item is filled with the
	// focus colour (widget/menu_item.go:295, 356-361).
	add(Text, "menu item (widget/menu_item.go:361)", Layers{fg}, Layers{menu})
	add(Text, "menu item active (widget/menu_item.go:295)", Layers{fg}, Layers{menu, focus})
	add(Text, "menu item disabled (widget/menu_item.go:356)", Layers{disabled}, Layers{menu})

	// Focus indicators and control boundaries (SC 1.4.11).
	for _, under := range []fyne.ThemeColorName{bg, overlay} {
		add(NonText, "button focus fill (widget/button.go:380)", Layers{button, focus}, Layers{under})
		add(NonText, "HighImportance button (widget/button.go:391)", Layers{primary}, Layers{under})
		add(NonText, "HighImportance button focused (widget/button.go:380, 391)", Layers{primary, focus}, Layers{under})
		add(NonText, "check, radio and hyperlink focus (widget/check.go:380, radio_item.go:201, hyperlink.go:362)", Layers{focus}, Layers{under})
		add(NonText, "select focus fill (widget/select.go:432)", Layers{focus}, Layers{under})
		add(NonText, "entry focus border (widget/entry.go:1714)", Layers{primary}, Layers{under})
		add(NonText, "entry focus border on its fill (widget/entry.go:1714)", Layers{primary}, Layers{under, input})
		add(NonText, "entry and check box border (widget/entry.go:1719, check.go:349)", Layers{border}, Layers{under})
		add(NonText, "entry border on its fill (widget/entry.go:1719)", Layers{border}, Layers{under, input})
		add(NonText, "check box in its focus circle (widget/check.go:351, 380)", Layers{input}, Layers{under, focus})
	}
	add(NonText, "menu item active (widget/menu_item.go:295)", Layers{focus}, Layers{menu})
	return ps
}
