package look

import (
	"image/color"
	"math"
)

// ratio is the WCAG 2.x contrast ratio of two opaque colours, from 1 (the
// same luminance) to 21 (black on white). Alpha is ignored: composite a
// translucent colour with over first.
func ratio(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is WCAG 2.x relative luminance: sRGB channels linearised and
// weighted by how bright the eye sees each.
func luminance(c color.Color) float64 {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return 0.2126*linear(n.R) + 0.7152*linear(n.G) + 0.0722*linear(n.B)
}

func linear(v uint8) float64 {
	s := float64(v) / 255
	if s <= 0.04045 {
		return s / 12.92
	}
	return math.Pow((s+0.055)/1.055, 2.4)
}

// over is top drawn over bottom, as Fyne draws a translucent fill over what
// lies beneath it (and as widget/button.go's blendColor mixes a focus or
// hover colour into a button's fill): the source-over operator on
// alpha-premultiplied sRGB values.
func over(bottom, top color.Color) color.Color {
	br, bg, bb, ba := bottom.RGBA()
	tr, tg, tb, ta := top.RGBA()
	mix := func(t, b uint32) uint16 { return uint16(t + b*(0xffff-ta)/0xffff) }
	return color.RGBA64{R: mix(tr, br), G: mix(tg, bg), B: mix(tb, bb), A: mix(ta, ba)}
}
