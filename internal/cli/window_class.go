package cli

import (
	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.4/glfw"
)

// setWindowClass gives every window the app shows from now on the X11
// WM_CLASS class and instance: without them GLFW takes each window's
// first title ("Servers — Elicit Desk"), which no desktop entry's
// StartupWMClass can match, so docks and launchers would not group the
// windows under Elicit Desk's icon. The class is the app's name, which is
// what `fyne package` writes as StartupWMClass too. Fyne neither sets these hints nor
// resets GLFW's hints, so setting them once before any window is shown
// holds for all. GLFW takes hints only once initialised, which Fyne does
// when the first window is made: a window is made for that, never shown.
// Wayland takes the app ID, which Fyne sets.
func setWindowClass(a fyne.App, class, instance string) {
	a.NewWindow(instance)
	fyne.DoAndWait(func() { // GLFW's hints belong to the main thread
		glfw.WindowHintString(glfw.X11ClassName, class)
		glfw.WindowHintString(glfw.X11InstanceName, instance)
		glfw.GetError() // without a display GLFW is not initialised: that error must not surface in Fyne's next call
	})
}
