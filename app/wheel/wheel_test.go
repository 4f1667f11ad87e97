package wheel

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

// TestNotchMovesFurther scrolls Fyne's scroll and this one by the same
// notches: this one moves three times as far, and stops at the end.
func TestNotchMovesFurther(t *testing.T) {
	test.NewTempApp(t)
	tall := func() fyne.CanvasObject {
		r := canvas.NewRectangle(nil)
		r.SetMinSize(fyne.NewSize(100, 1000))
		return r
	}
	plain, fast := container.NewVScroll(tall()), NewVScroll(tall())
	for _, s := range []fyne.CanvasObject{plain, fast} {
		test.NewWindow(s).Resize(fyne.NewSize(100, 200))
	}
	notch := &fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -25)}
	plain.Scrolled(notch)
	fast.Scrolled(notch)
	if plain.Offset.Y != 25 || fast.Offset.Y != 3*plain.Offset.Y {
		t.Errorf("a notch moved Fyne's scroll %v and this one %v", plain.Offset.Y, fast.Offset.Y)
	}
	if notch.Scrolled.DY != -25 {
		t.Errorf("the event changed to %v", notch.Scrolled)
	}
	for range 100 {
		fast.Scrolled(notch)
	}
	if end := fast.Content.Size().Height - fast.Size().Height; fast.Offset.Y != end {
		t.Errorf("offset %v past the end %v", fast.Offset.Y, end)
	}
}

func TestScrollToShow(t *testing.T) {
	// A view 100 tall over content 1000 tall, with a margin of 4.
	tests := []struct {
		name                string
		offset, top, bottom float32
		want                float32
	}{
		{"shown already", 0, 10, 50, 0},
		{"shown, scrolled", 200, 250, 290, 200},
		{"below: its bottom comes up", 0, 150, 190, 94},
		{"above: its top comes down", 500, 300, 340, 296},
		{"taller than the view: its top", 0, 300, 600, 296},
		{"taller, its top shown: still its top", 250, 300, 600, 296},
		{"at the top: no further than 0", 50, 2, 40, 0},
		{"at the end: no further than the end", 0, 960, 1000, 900},
	}
	for _, tt := range tests {
		if got := scrollToShow(tt.offset, 100, 1000, tt.top, tt.bottom, 4); got != tt.want {
			t.Errorf("%s: offset %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := scrollToShow(30, 0, 1000, 500, 600, 4); got != 30 {
		t.Errorf("a view not laid out yet scrolled to %v", got)
	}
}
