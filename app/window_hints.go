package app

import (
	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.4/glfw"
)

// SetWindowHints sets, once for every window the app shows from now on,
// the GLFW hints Fyne leaves alone. Fyne neither sets nor resets them, so
// setting them before any window is shown holds for all. GLFW takes hints
// only once initialised, which Fyne does when the first window is made: a
// window is made for that, never shown, and returned.
//
//   - The X11 WM_CLASS class and instance: without them GLFW takes each
//     window's first title ("Servers — Elicit Desk"), which no desktop
//     entry's StartupWMClass can match, so docks and launchers would not
//     group the windows under Elicit Desk's icon. The class is the app's
//     name, which is what `fyne package` writes as StartupWMClass too.
//     Wayland takes the app ID, which Fyne sets.
//   - No focus on show: GLFW would otherwise ask the window manager to
//     focus every window it maps, taking the keyboard from the application
//     the person types in whenever a request arrives. Windows the person
//     opens ask for the focus themselves (RequestFocus).
//
// While the main thread is GLFW's, it also loads the GL driver (warmGL).
func SetWindowHints(a fyne.App, class, instance string) (unseen fyne.Window) {
	unseen = a.NewWindow(instance)
	fyne.DoAndWait(func() { // GLFW's hints belong to the main thread
		glfw.GetError() // one left from Fyne's start (a cursor shape the X server lacks) is not ours
		glfw.WindowHintString(glfw.X11ClassName, class)
		glfw.WindowHintString(glfw.X11InstanceName, instance)
		if code, _ := glfw.GetError(); code != glfw.NoError {
			return // no display: that error must not surface in Fyne's next call
		}
		glfw.WindowHint(glfw.FocusOnShow, glfw.False)
		warmGL(instance)
	})
	return unseen
}

// warmGL makes and ends a GL context in a window never shown, so the GL
// driver is loaded and set up (on Mesa's software renderer about 60 ms
// of the main thread: ld.so, LLVM, GLX) before the first window is
// wanted, while the fonts load on another thread (WarmFonts). A failure
// is left to the first real window to meet and report.
func warmGL(title string) {
	glfw.WindowHint(glfw.Visible, glfw.False) // Fyne's windows set it too
	// A platform error is logged by go-gl and returns no window, no error.
	if w, err := glfw.CreateWindow(1, 1, title, nil, nil); err == nil && w != nil {
		w.Destroy()
	}
	glfw.GetError()
}
