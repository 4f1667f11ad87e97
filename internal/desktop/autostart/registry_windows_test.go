package autostart

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/registry"
)

// testKey holds the keys the tests make, so the real Run key is never
// touched.
const testKey = `Software\ElicitDeskTest`

// testLocation is a key of the test's own under HKEY_CURRENT_USER, deleted
// afterwards.
func testLocation(t *testing.T) string {
	path := testKey + `\` + strings.ReplaceAll(t.Name(), "/", "_")
	t.Cleanup(func() {
		registry.DeleteKey(registry.CURRENT_USER, path)
		registry.DeleteKey(registry.CURRENT_USER, testKey) // fails, harmlessly, while other tests' keys remain
	})
	return path
}

// stored returns the Run value e.Enable set, and what it should hold.
func stored(t *testing.T, e Entry) (got, want string) {
	t.Helper()
	k, err := registry.OpenKey(registry.CURRENT_USER, e.Dir, registry.QUERY_VALUE)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	got, _, err = k.GetStringValue(e.Name)
	if err != nil {
		t.Fatal(err)
	}
	return got, commandLine(e.Exec)
}

// TestCommandLineReadBack has Windows split each command line back.
func TestCommandLineReadBack(t *testing.T) {
	for _, tt := range readArgsCases(t, "cmdline.txt") {
		got, err := windows.DecomposeCommandLine(commandLine(tt.args))
		if err != nil || !slices.Equal(got, tt.args) {
			t.Errorf("%s reads back as %q (%v), want %q", commandLine(tt.args), got, err, tt.args)
		}
	}
}
