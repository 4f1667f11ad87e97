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

// TestRatio checks Ratio against published figures.
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
			got := Ratio(hex(t, fore), hex(t, back))
			if math.Abs(got-want) > 0.005 {
				t.Errorf("Ratio = %.4f, want %.2f", got, want)
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
			if got := color.NRGBAModel.Convert(Over(c.bottom, c.top)).(color.NRGBA); !near(got, c.want) {
				t.Errorf("Over = %v, want %v", got, c.want)
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
	d := func(p, q uint8) bool { return p-q <= 1 || q-p <= 1 }
	return d(x.R, y.R) && d(x.G, y.G) && d(x.B, y.B) && d(x.A, y.A)
}
