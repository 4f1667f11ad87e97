package corecmd

import (
	"slices"
	"testing"
)

// TestWindowsEnv: the windows' process runs its windows through Xwayland
// on a Wayland desktop that has it, unless the person chose a platform,
// and says when they will be Wayland ones all the same.
func TestWindowsEnv(t *testing.T) {
	for _, tt := range []struct {
		name        string
		env         []string
		x11, native bool
	}{
		{"wayland with Xwayland", []string{"WAYLAND_DISPLAY=wayland-1", "DISPLAY=:0"}, true, false},
		{"wayland alone", []string{"WAYLAND_DISPLAY=wayland-1"}, false, true},
		{"X11 alone", []string{"DISPLAY=:0"}, false, false},
		{"an empty DISPLAY", []string{"WAYLAND_DISPLAY=wayland-1", "DISPLAY="}, false, true},
		{"the person's choice", []string{"WAYLAND_DISPLAY=wayland-1", "DISPLAY=:0", "FYNE_PLATFORM=wayland"}, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, native := windowsEnv(slices.Clone(tt.env))
			if x11 := slices.Contains(got, "FYNE_PLATFORM=x11"); x11 != tt.x11 || native != tt.native || len(got) < len(tt.env) {
				t.Errorf("windowsEnv(%q) = %q, %v; want FYNE_PLATFORM=x11 added: %v, native %v", tt.env, got, native, tt.x11, tt.native)
			}
		})
	}
}
