//go:build unix

package autostart

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/adrg/xdg"
)

// testLocation is a Dir of the test's own.
func testLocation(t *testing.T) string { return t.TempDir() }

// stored returns the file e.Enable wrote, and what it should hold.
func stored(t *testing.T, e Entry) (got, want string) {
	t.Helper()
	return storedAs(t, native(), e)
}

// storedAs returns the file of e in format f, and what it should hold.
func storedAs(t *testing.T, f fileFormat, e Entry) (got, want string) {
	t.Helper()
	path, err := e.file(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data), string(f.render(e))
}

// TestFileFormats goes through the life of each entry in each desktop's
// file format, the macOS LaunchAgent too on Linux: in a folder of its
// own, then in the desktop's own folder, with HOME and XDG_CONFIG_HOME in
// a temporary directory.
func TestFileFormats(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    fileFormat
		file func(home string, e Entry) string // where the desktop looks for e
	}{
		{"XDG autostart", xdgAutostart(), func(home string, e Entry) string {
			return filepath.Join(home, "config", "autostart", e.ID+".desktop")
		}},
		{"LaunchAgent", launchAgents(), func(home string, e Entry) string {
			return filepath.Join(home, "Library", "LaunchAgents", e.ID+".plist")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eachEntry(t, "entries.json", func(t *testing.T, e Entry, _ bool) {
				lifeOf(t, tc.f, e)
			})
			t.Run("default folder", func(t *testing.T) {
				t.Cleanup(xdg.Reload) // registered first, so it runs once the variables are back
				home := t.TempDir()
				t.Setenv("HOME", home)
				t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
				xdg.Reload()
				e := Entry{ID: "io.github.elicitdesk.test", Name: "Elicit Desk test", Exec: []string{"/usr/bin/elicitdesk"}}
				lifeOf(t, tc.f, e)
				if err := e.enable(tc.f); err != nil {
					t.Fatal(err)
				}
				if _, err := os.Stat(tc.file(home, e)); err != nil {
					t.Errorf("no entry where the desktop looks: %v", err)
				}
			})
		})
	}
}

// lifeOf enables e in format f, twice, checks the file, and disables it.
func lifeOf(t *testing.T, f fileFormat, e Entry) {
	t.Helper()
	wantEnabledAs(t, f, e, false)
	for range 2 { // the second replaces the first
		if err := e.enable(f); err != nil {
			t.Fatal(err)
		}
	}
	wantEnabledAs(t, f, e, true)
	if got, want := storedAs(t, f, e); got != want {
		t.Errorf("stored\n%s\nwant\n%s", got, want)
	}
	if err := e.disable(f); err != nil {
		t.Fatal(err)
	}
	wantEnabledAs(t, f, e, false)
}

// wantEnabledAs fails t unless e's file in format f is there and active
// as want says.
func wantEnabledAs(t *testing.T, f fileFormat, e Entry, want bool) {
	t.Helper()
	got, err := e.enabled(f)
	if err != nil || got != want {
		t.Fatalf("enabled() = %v, %v; want %v", got, err, want)
	}
}
