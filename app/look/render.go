package look

import "fyne.io/fyne/v2"

// What a window's render function sets on its widgets, from the plain
// value it shows.

// Visible shows o or hides it.
func Visible(o fyne.CanvasObject, show bool) {
	if show {
		o.Show()
	} else {
		o.Hide()
	}
}

// Enabled enables w or disables it.
func Enabled(w fyne.Disableable, on bool) {
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
}
