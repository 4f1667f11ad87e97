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
