package look

import (
	"bufio"
	"fmt"
	"image/color"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestRatio checks ratio against published figures.
func TestRatio(t *testing.T) {
	f, err := os.Open("testdata/ratios.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		if line == "" || strings.HasPrefix(line, "# ") {
			continue
		}
		var fore, back string
		var want float64
		if _, err := fmt.Sscan(line, &fore, &back, &want); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		t.Run(fore+"_on_"+back, func(t *testing.T) {
			got := ratio(hex(t, fore), hex(t, back))
			if math.Abs(got-want) > 0.005 {
				t.Errorf("ratio = %.4f, want %.2f", got, want)
			}
		})
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
}

func TestOver(t *testing.T) {
	black, white := color.NRGBA{A: 0xff}, color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	for _, c := range []struct {
		name        string
		bottom, top color.Color
		want        color.NRGBA
	}{
		{"opaque top hides the bottom", black, white, white},
		{"transparent top shows the bottom", white, color.Transparent, white},
		{"half white over black is mid grey", black, color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0x80}, color.NRGBA{R: 0x80, G: 0x80, B: 0x80, A: 0xff}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := color.NRGBAModel.Convert(over(c.bottom, c.top)).(color.NRGBA); !near(got, c.want) {
				t.Errorf("over = %v, want %v", got, c.want)
			}
		})
	}
}

// hex reads #rrggbb.
func hex(t *testing.T, s string) color.NRGBA {
	t.Helper()
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "#"), 16, 32)
	if err != nil || len(s) != 7 {
		t.Fatalf("bad colour %q", s)
	}
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// near says two colours differ by at most one step in each channel, as
// rounding in 8 or 16 bits may leave them.
func near(a, b color.Color) bool {
	x := color.NRGBAModel.Convert(a).(color.NRGBA)
	y := color.NRGBAModel.Convert(b).(color.NRGBA)
	d := func(p, q uint8) bool { n := int(p) - int(q); return -1 <= n && n <= 1 }
	return d(x.R, y.R) && d(x.G, y.G) && d(x.B, y.B) && d(x.A, y.A)
}

// TestNear checks the helper the colour tests lean on, at the ends of a
// channel's range where uint8 arithmetic would wrap around.
func TestNear(t *testing.T) {
	grey := func(v uint8) color.NRGBA { return color.NRGBA{R: v, G: v, B: v, A: 0xff} }
	for _, c := range []struct {
		a, b uint8
		want bool
	}{{0x80, 0x80, true}, {0x80, 0x81, true}, {0x81, 0x80, true}, {0x80, 0x82, false}, {0, 0xff, false}, {0xff, 0, false}, {3, 250, false}} {
		if got := near(grey(c.a), grey(c.b)); got != c.want {
			t.Errorf("near(%#x, %#x) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

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
