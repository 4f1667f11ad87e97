package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDesktopEntryNamesTheApp checks that the desktop entry make install
// puts in the menu names the app as it names itself: its icon, and the
// window class setWindowClass gives every window, so docks group them.
func TestDesktopEntryNamesTheApp(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "assets", "linux", appID+".desktop"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keys := map[string]string{}
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		if k, v, ok := strings.Cut(lines.Text(), "="); ok {
			keys[k] = v
		}
	}
	for _, key := range []string{"Icon", "StartupWMClass"} {
		if keys[key] != appID {
			t.Errorf("%s=%s, want %s", key, keys[key], appID)
		}
	}
	if keys["Exec"] != appCommand {
		t.Errorf("Exec=%s, want %s (make install writes the installed path)", keys["Exec"], appCommand)
	}
}
