//go:build !ci && !android && !ios && !mobile && !wasm && !test_web_driver && !tamago && !noos && !tinygo

package screen

import (
	"os"
	"runtime"

	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.4/glfw"
)

// Find asks GLFW for the primary screen: it must run on the UI goroutine
// (fyne.Do) of a running Fyne desktop app, whose driver has initialised
// GLFW. It reports false when GLFW knows no monitor. GLFW cannot tell which
// screen the pointer is on, so the primary screen stands for the active
// one.
func Find(a fyne.App) (Screen, bool) {
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return Screen{}, false
	}
	mode := m.GetVideoMode()
	if mode == nil { // disconnected meanwhile
		return Screen{}, false
	}
	x, y, w, h := m.GetWorkarea()
	cs, _ := m.GetContentScale()
	wayland := glfw.GetPlatform() == glfw.PlatformWayland
	mm, _ := m.GetPhysicalSize()
	s := Screen{
		Work:      Area{X: x, Y: y, Width: w, Height: h},
		Scale:     driverScale(monitor{goos: runtime.GOOS, wayland: wayland, contentScale: cs, widthMM: mm, widthPx: mode.Width}, userScale(os.Getenv("FYNE_SCALE"), a.Settings().Scale()), detectDPI()),
		Placeable: !wayland,
	}
	if wayland && cs > 0 {
		// GLFW gives the mode in pixels; Wayland windows are sized in
		// the compositor's logical pixels.
		s.Work.Width, s.Work.Height = int(float32(w)/cs), int(float32(h)/cs)
	}
	if s.Work.Width <= 0 || s.Work.Height <= 0 {
		return Screen{}, false
	}
	return s, true
}
