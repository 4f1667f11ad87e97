package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// TestDesktopEntryNamesTheApp checks that the desktop entry make install
// puts in the menu says what FyneApp.toml (which `fyne package` reads)
// says, and names the app as it names itself: its icon, and the window
// class app.SetWindowHints gives every window, so docks group them.
func TestDesktopEntryNamesTheApp(t *testing.T) {
	root := filepath.Join("..", "..")
	raw, err := os.ReadFile(filepath.Join(root, "FyneApp.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Details     struct{ ID, Name string }
		LinuxAndBSD struct {
			GenericName, Comment string
			Categories, Keywords []string
		}
	}
	if err := toml.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(root, "assets", "linux", appID+".desktop"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]string{}
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		if k, v, ok := strings.Cut(lines.Text(), "="); ok {
			got[k] = v
		}
	}
	list := func(items []string) string { return strings.Join(items, ";") + ";" }
	want := map[string]string{
		"Name":           appName,
		"Icon":           appID,
		"StartupWMClass": appName,
		"Exec":           appCommand, // make install writes the installed path
		"GenericName":    meta.LinuxAndBSD.GenericName,
		"Comment":        meta.LinuxAndBSD.Comment,
		"Categories":     list(meta.LinuxAndBSD.Categories),
		"Keywords":       list(meta.LinuxAndBSD.Keywords),
	}
	for key, value := range want {
		if got[key] != value {
			t.Errorf("%s=%s, want %s", key, got[key], value)
		}
	}
	if meta.Details.ID != appID || meta.Details.Name != appName {
		t.Errorf("FyneApp.toml names %s (%s), the program %s (%s)", meta.Details.Name, meta.Details.ID, appName, appID)
	}
}
