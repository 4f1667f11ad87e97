package xwin

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestQuietWrapsOnce: a window shown, hidden and shown again, each time
// made quiet first, as the Servers window is when the tray host goes and
// comes, keeps its content one wrapper deep where it is no X11 window
// (the test driver's, Windows', macOS', Wayland's).
func TestQuietWrapsOnce(t *testing.T) {
	test.NewTempApp(t)
	label := widget.NewLabel("Servers")
	w := test.NewTempWindow(t, label)
	for range 3 {
		Quiet(w)
		w.Show()
		w.Hide()
	}
	c, ok := w.Content().(*fyne.Container)
	if !ok || len(c.Objects) != 1 || c.Objects[0] != fyne.CanvasObject(label) {
		t.Errorf("the content is %#v, want the label wrapped once", w.Content())
	}
}
