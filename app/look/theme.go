// Package look is the app's theme: Fyne's default look with the colours
// that text and keyboard focus are drawn in made dark or light enough to
// read (WCAG 2.2: 4.5:1 for text, 3:1 for focus indicators and control
// boundaries) in both the light and the dark variant. pairs_test.go lists
// every colour pair that must meet those figures, and where Fyne draws it.
package look

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// appTheme is Fyne's default theme with the palette's colours in place of
// its own; fonts, icons, sizes and every other colour are Fyne's.
type appTheme struct {
	base    fyne.Theme
	fixed   bool // draw variant, whatever Fyne asks for
	variant fyne.ThemeVariant
}

var _ fyne.Theme = appTheme{}

// New is the app's theme over Fyne's default one, in the variant Fyne
// asks for: the desktop's as the settings portal says (Fyne follows its
// changes), or FYNE_THEME.
func New() fyne.Theme {
	return appTheme{base: theme.DefaultTheme()}
}

// Fixed is the app's theme always drawn in variant v, whatever Fyne asks
// for: the person's choice, or the desktop's where Fyne cannot read it.
func Fixed(v fyne.ThemeVariant) fyne.Theme {
	return appTheme{base: theme.DefaultTheme(), fixed: true, variant: v}
}

// Color is the palette's colour for n in variant v, or Fyne's.
func (t appTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if t.fixed {
		v = t.variant
	}
	if c, ok := paletteColor(n, v); ok {
		return c
	}
	return t.base.Color(n, v)
}

// Font is Fyne's.
func (t appTheme) Font(s fyne.TextStyle) fyne.Resource { return t.base.Font(s) }

// Icon is Fyne's.
func (t appTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.base.Icon(n) }

// Size is Fyne's.
func (t appTheme) Size(n fyne.ThemeSizeName) float32 { return t.base.Size(n) }
