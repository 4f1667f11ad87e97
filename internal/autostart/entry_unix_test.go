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
	path, err := e.file()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data), string(e.render())
}

// TestDefaultDir checks that an entry without Dir goes where the desktop
// looks for it, with HOME and XDG_CONFIG_HOME in a temporary directory.
func TestDefaultDir(t *testing.T) {
	t.Cleanup(xdg.Reload) // registered first, so it runs once the variables are back
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	xdg.Reload()
	e := Entry{ID: "io.github.elicitdesk.test", Name: "Elicit Desk test", Exec: []string{"/usr/bin/elicitdesk"}}
	if err := e.Enable(); err != nil {
		t.Fatal(err)
	}
	want := defaultFile(home, e)
	if _, err := os.Stat(want); err != nil {
		t.Errorf("no entry where the desktop looks: %v", err)
	}
	wantEnabled(t, e, true)
	if err := e.Disable(); err != nil {
		t.Fatal(err)
	}
}
