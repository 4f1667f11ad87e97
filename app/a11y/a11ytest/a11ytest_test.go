package a11ytest

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestWidgets(t *testing.T) {
	got, err := Widgets("testdata/widgets")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"drawn", "entry", "numeric", "ringed", "scroll"}
	if !slices.Equal(got, want) {
		t.Errorf("Widgets = %q, want %q", got, want)
	}
}

// TestEveryWidgetPackageChecked fails when a package of the app declares a
// custom widget and none of its tests calls Check: a new package's widgets
// would otherwise reach no screen reader unnoticed.
func TestEveryWidgetPackageChecked(t *testing.T) {
	root := "../../.."
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("not the module root: %v", err)
	}
	var checked int
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".") || name == "node_modules") {
			return filepath.SkipDir
		}
		widgets, err := Widgets(path)
		if err != nil || len(widgets) == 0 {
			return err
		}
		if !callsCheck(t, path) {
			t.Errorf("%s declares the custom widgets %q, but no test there calls a11ytest.Check", path, widgets)
		}
		checked++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Error("found no package with custom widgets: the walk is broken")
	}
}

// callsCheck reports whether a test file in dir calls Check.
func callsCheck(t *testing.T, dir string) bool {
	tests, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range tests {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "a11ytest.Check(") {
			return true
		}
	}
	return false
}
