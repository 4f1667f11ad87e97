package corecmd

import (
	"slices"
	"testing"
)

// TestWindowsEnv: the windows' process runs its windows through Xwayland
// on a Wayland desktop that has it, unless the person chose a platform.
func TestWindowsEnv(t *testing.T) {
	for _, tt := range []struct {
		name string
		env  []string
		x11  bool
	}{
		{"wayland with Xwayland", []string{"WAYLAND_DISPLAY=wayland-1", "DISPLAY=:0"}, true},
		{"wayland alone", []string{"WAYLAND_DISPLAY=wayland-1"}, false},
		{"X11 alone", []string{"DISPLAY=:0"}, false},
		{"an empty DISPLAY", []string{"WAYLAND_DISPLAY=wayland-1", "DISPLAY="}, false},
		{"the person's choice", []string{"WAYLAND_DISPLAY=wayland-1", "DISPLAY=:0", "FYNE_PLATFORM=wayland"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := windowsEnv(slices.Clone(tt.env))
			if x11 := slices.Contains(got, "FYNE_PLATFORM=x11"); x11 != tt.x11 || len(got) < len(tt.env) {
				t.Errorf("windowsEnv(%q) = %q, want FYNE_PLATFORM=x11 added: %v", tt.env, got, tt.x11)
			}
		})
	}
}
