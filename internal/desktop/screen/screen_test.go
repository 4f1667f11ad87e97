package screen

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// load reads a table of cases from testdata.
func load[T any](t *testing.T, name string) []T {
	t.Helper()
	raw, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var cases []T
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestPlace(t *testing.T) {
	type placeCase struct {
		Name   string
		Work   Area
		Scale  float32
		Size   [2]float32
		Others int
		Want   [2]int
	}
	for _, c := range load[placeCase](t, "place.json") {
		t.Run(c.Name, func(t *testing.T) {
			s := Screen{Work: c.Work, Scale: c.Scale, Placeable: true}
			x, y := s.Place(fyne.NewSize(c.Size[0], c.Size[1]), c.Others)
			if [2]int{x, y} != c.Want {
				t.Errorf("Place = %d, %d; want %v", x, y, c.Want)
			}
			if x < c.Work.X+frameSide || y < c.Work.Y+frameTop {
				t.Errorf("%d, %d puts the frame outside the work area %+v", x, y, c.Work)
			}
		})
	}
}

// TestPlaceStaysInside steps many windows of every size through a work
// area: each one's frame stays inside it whenever the window fits.
func TestPlaceStaysInside(t *testing.T) {
	s := Screen{Work: Area{X: 10, Y: 32, Width: 1440, Height: 868}, Scale: 1.5, Placeable: true}
	room := s.Size()
	for w := float32(100); w <= room.Width; w += 97 {
		for h := float32(50); h <= room.Height; h += 61 {
			for n := range 30 {
				x, y := s.Place(fyne.NewSize(w, h), n)
				right := x + int(w*s.Scale+0.999) + frameSide
				bottom := y + int(h*s.Scale+0.999) + frameBottom
				if x-frameSide < s.Work.X || y-frameTop < s.Work.Y || right > s.Work.X+s.Work.Width || bottom > s.Work.Y+s.Work.Height {
					t.Fatalf("window %v×%v, %d others: at %d, %d, outside %+v", w, h, n, x, y, s.Work)
				}
			}
		}
	}
}

func TestSize(t *testing.T) {
	s := Screen{Work: Area{Y: 32, Width: 1440, Height: 868}, Scale: 2}
	if got, want := s.Size(), fyne.NewSize((1440-2*frameSide)/2., (868-frameTop-frameBottom)/2.); got != want {
		t.Errorf("Size = %v, want %v", got, want)
	}
	if got := (Screen{Work: Area{Width: 800, Height: 600}}).Size(); got.Width <= 0 {
		t.Errorf("a screen without a scale has no room: %v", got)
	}
}

func TestDriverScale(t *testing.T) {
	type scaleCase struct {
		Name    string
		Monitor struct {
			GOOS         string
			Wayland      bool
			ContentScale float32
			WidthMM      int
			WidthPx      int
		}
		Env     string
		Setting float32
		DPI     bool
		Want    float32
	}
	for _, c := range load[scaleCase](t, "scale.json") {
		t.Run(c.Name, func(t *testing.T) {
			m := monitor{goos: c.Monitor.GOOS, wayland: c.Monitor.Wayland, contentScale: c.Monitor.ContentScale, widthMM: c.Monitor.WidthMM, widthPx: c.Monitor.WidthPx}
			if got := driverScale(m, userScale(c.Env, c.Setting), c.DPI); got != c.Want {
				t.Errorf("scale %v, want %v", got, c.Want)
			}
		})
	}
}

func TestOpen(t *testing.T) {
	type openCase struct {
		Name      string
		Work      Area
		Scale     float32
		Preferred [2]float32
		Want      struct {
			Size [2]float32
			At   [2]int
		}
	}
	for _, c := range load[openCase](t, "open.json") {
		t.Run(c.Name, func(t *testing.T) {
			s := Screen{Work: c.Work, Scale: c.Scale, Placeable: true}
			o := s.Open(fyne.NewSize(c.Preferred[0], c.Preferred[1]))
			if got := [2]float32{o.Size.Width, o.Size.Height}; got != c.Want.Size {
				t.Errorf("size %v, want %v", got, c.Want.Size)
			}
			if got := [2]int{o.X, o.Y}; got != c.Want.At {
				t.Errorf("at %v, want %v", got, c.Want.At)
			}
			if room := s.Size(); o.Size.Width > room.Width || o.Size.Height > room.Height {
				t.Errorf("%v is bigger than the work area's %v", o.Size, room)
			}
		})
	}
}

// TestShowFitted opens a window of wrapped text: as wide as asked, as tall
// as the text at that width, and no taller than the work area.
func TestShowFitted(t *testing.T) {
	test.NewTempApp(t)
	for _, c := range []struct {
		name   string
		height int // the work area's
		capped bool
	}{{"room enough", 2000, false}, {"a short screen", 200, true}} {
		t.Run(c.name, func(t *testing.T) {
			s := Screen{Work: Area{Width: 1000, Height: c.height}, Scale: 1}
			text := widget.NewLabel(strings.Repeat("words wrapped at the window's width ", 40))
			text.Wrapping = fyne.TextWrapWord
			w := test.NewWindow(text)
			defer w.Close()
			s.ShowFitted(w, 300, func() float32 { return text.MinSize().Height })
			pad := 2 * theme.Padding()
			got := w.Canvas().Size()
			want := fyne.NewSize(300, text.MinSize().Height+pad)
			if c.capped {
				want.Height = s.Size().Height
			}
			if got != want {
				t.Errorf("window %v, want %v", got, want)
			}
			if text.MinSize().Height < 5*theme.TextSize() {
				t.Errorf("the text is %v high: not wrapped at the window's width", text.MinSize().Height)
			}
		})
	}
}

// TestShowFittedRescaled: when Fyne shows the window at another scale
// than the screen predicted (4 predicted; the test driver's is 1), the
// window gets the width it wanted and a height measured at that width.
func TestShowFittedRescaled(t *testing.T) {
	test.NewTempApp(t)
	s := Screen{Work: Area{Width: 1000, Height: 2000}, Scale: 4} // 248 units wide, predicted
	text := widget.NewLabel(strings.Repeat("words wrapped at the window's width ", 40))
	text.Wrapping = fyne.TextWrapWord
	w := test.NewWindow(text)
	defer w.Close()
	s.ShowFitted(w, 600, func() float32 { return text.MinSize().Height })
	got := w.Canvas().Size()
	pad := 2 * theme.Padding()
	if got.Width != 600 {
		t.Fatalf("window %v, want the 600 it asked for at scale 1", got)
	}
	if want := text.MinSize().Height + pad; got.Height != want {
		t.Errorf("window %v high, want %v: the height of the text wrapped at 248 units, not at 600", got.Height, want)
	}
}
