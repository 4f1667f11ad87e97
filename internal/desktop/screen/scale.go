package screen

import (
	"math"
	"os"
	"strconv"
	"strings"
)

// userScale is the scale the person asked for: FYNE_SCALE, else the app's
// setting, else 1, as Fyne reads it (userScale in Fyne 2.8.1's
// internal/driver/glfw/scale.go).
func userScale(env string, setting float32) float32 {
	if env != "" && env != "auto" {
		if f, err := strconv.ParseFloat(env, 32); err == nil && f != 0 {
			return float32(f)
		}
	}
	if env != "auto" && setting > 0 {
		return setting
	}
	return 1
}

// detectDPI is whether Fyne derives a scale from the monitor's density.
func detectDPI() bool {
	env := os.Getenv("FYNE_DISABLE_DPI_DETECTION")
	return !(strings.EqualFold(env, "true") || strings.EqualFold(env, "t") || env == "1")
}

// monitor is what GLFW says about a monitor, as far as Fyne's scale goes.
type monitor struct {
	goos         string
	wayland      bool
	contentScale float32 // the system's scale for the monitor
	widthMM      int     // physical width
	widthPx      int     // the video mode's width
}

// driverScale is the scale Fyne 2.8.1's GLFW driver gives a new window on
// m (calculateScale and calculateDetectedScale in internal/driver/glfw/
// scale.go, detectScale in window_desktop.go and SystemScaleForWindow in
// device_desktop.go), which Fyne does not export: the windows system's
// scale on Windows, none on macOS (its points are scaled already) and on
// Wayland (the compositor scales), else the monitor's density against
// 120 DPI; times the person's scale, rounded to a tenth.
func driverScale(m monitor, user float32, dpi bool) float32 {
	system := float32(1)
	switch {
	case m.goos == "windows":
		system = m.contentScale
	case m.goos == "darwin", m.wayland, !dpi:
	default:
		d := float32(m.widthPx) / (float32(m.widthMM) / 25.4)
		if m.widthMM <= 0 || d > 1000 || d < 10 {
			d = 120
		}
		system = max(1, d/120)
	}
	return float32(math.Round(float64(system*user*10)) / 10)
}
