//go:build linux && !headless

package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMakeCacheDir: the windows' process makes the cache directory Fyne
// puts its own in, private, where XDG_CACHE_HOME says or under HOME, and
// leaves one that exists as it is.
func TestMakeCacheDir(t *testing.T) {
	for _, tt := range []struct {
		name   string
		xdg    string // XDG_CACHE_HOME, under the test's home; "" for none
		want   string // the directory made, under the home
		exists bool   // it exists already, with mode 0755
	}{
		{"new account", "", ".cache", false},
		{"XDG_CACHE_HOME", "elsewhere/cache", "elsewhere/cache", false},
		{"there already", "", ".cache", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("XDG_CACHE_HOME", "")
			if tt.xdg != "" {
				t.Setenv("XDG_CACHE_HOME", filepath.Join(home, tt.xdg))
			}
			want := filepath.Join(home, tt.want)
			mode := os.FileMode(0o700)
			if tt.exists {
				mode = 0o755
				if err := os.Mkdir(want, mode); err != nil {
					t.Fatal(err)
				}
			}
			if err := makeCacheDir(); err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(want)
			if err != nil {
				t.Fatal(err)
			}
			if !info.IsDir() || info.Mode().Perm() != mode {
				t.Errorf("%s: %v, want a directory of mode %v", want, info.Mode(), mode)
			}
		})
	}
}
