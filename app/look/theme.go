// Package look is the app's theme: Fyne's default look with the colours
// that text and keyboard focus are drawn in made dark or light enough to
// read (WCAG 2.2: 4.5:1 for text, 3:1 for focus indicators and control
// boundaries) in both the light and the dark variant. Pairs lists every
// colour pair that must meet those figures, and where Fyne draws it.
package look

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Theme is Fyne's default theme with the palette's colours in place of
// its own; fonts, icons, sizes and every other colour are Fyne's.
type Theme struct {
	base fyne.Theme
}

var _ fyne.Theme = Theme{}

// New is the app's theme over Fyne's default one (which follows the
// person's light or dark preference and FYNE_THEME).
func New() Theme {
	return Theme{base: theme.DefaultTheme()}
}

// Color is the palette's colour for n in variant v, or Fyne's.
func (t Theme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if c, ok := paletteColor(n, v); ok {
		return c
	}
	return t.base.Color(n, v)
}

// Font is Fyne's.
func (t Theme) Font(s fyne.TextStyle) fyne.Resource { return t.base.Font(s) }

// Icon is Fyne's.
func (t Theme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.base.Icon(n) }

// Size is Fyne's.
func (t Theme) Size(n fyne.ThemeSizeName) float32 { return t.base.Size(n) }
