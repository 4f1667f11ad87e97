package look

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// paletteColor is the app's colour for n in variant v where it differs
// from Fyne 2.8.1's (theme/color.go): the same hues, darker in the light
// variant and lighter in the dark one until every pair that pairs lists reads.
// Fyne takes primary, hyperlink, focus and selection from the person's
// chosen primary colour (theme/theme.go:110-119); the app fixes them to
// Fyne's blue so that the figures the tests compute are the ones shown.
func paletteColor(n fyne.ThemeColorName, v fyne.ThemeVariant) (color.Color, bool) {
	if v == theme.VariantLight {
		switch n {
		case fg:
			return rgb(0x1c, 0x1c, 0x1e), true // Fyne: #565656
		case disabled:
			return rgb(0x5c, 0x5c, 0x5e), true // Fyne: #e3e3e3
		case hint:
			return rgb(0x5e, 0x5e, 0x62), true // Fyne: #888888
		case border:
			return rgb(0x6e, 0x6e, 0x72), true // Fyne: #e3e3e3; a check box is a thin line
		case primary, link:
			return rgb(0x1a, 0x58, 0xd0), true // Fyne: #296ff6
		case focus:
			return color.NRGBA{R: 0x00, G: 0x28, B: 0x78, A: 0x88}, true // Fyne: #006cff2a
		case danger:
			return rgb(0xc2, 0x22, 0x16), true // Fyne: #f44336
		case success:
			return rgb(0x1b, 0x74, 0x1e), true // Fyne: #43f436
		case warning:
			return rgb(0x9c, 0x4e, 0x00), true // Fyne: #ff9800
		case selection:
			return color.NRGBA{R: 0x00, G: 0x6c, B: 0xff, A: 0x2c}, true // Fyne: #006cff40
		case onPrimary:
			return rgb(0xff, 0xff, 0xff), true // Fyne's for blue
		}
		return nil, false
	}
	switch n {
	case fg:
		return rgb(0xff, 0xff, 0xff), true // Fyne: #f3f3f3
	case disabled:
		return rgb(0xa0, 0xa0, 0xa2), true // Fyne: #39393a
	case border:
		return rgb(0x88, 0x88, 0x8c), true // Fyne: #39393a; a check box is a thin line
	case primary, link:
		return rgb(0x78, 0xaf, 0xff), true // Fyne: #296ff6
	case focus:
		return color.NRGBA{R: 0x4e, G: 0x75, B: 0xff, A: 0xe0}, true // Fyne: #006cff2a
	case danger:
		return rgb(0xff, 0x80, 0x75), true // Fyne: #f44336
	case selection:
		return color.NRGBA{R: 0x00, G: 0x6c, B: 0xff, A: 0x40}, true // Fyne's for blue
	case onPrimary:
		return rgb(0x17, 0x17, 0x18), true // Fyne: #ffffff
	}
	return nil, false
}

func rgb(r, g, b uint8) color.NRGBA { return color.NRGBA{R: r, G: g, B: b, A: 0xff} }

// Colour names, short for the palette (and the contrast table,
// pairs_test.go).
const (
	border    = theme.ColorNameInputBorder
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
)
