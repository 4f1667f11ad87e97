package serversview

import (
	"os"
	"path/filepath"
	"testing"
)

// forEachFile runs f on every testdata/dir/*.json, failing when there is none.
func forEachFile(t *testing.T, dir string, f func(file string, raw []byte)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatal("no testdata in", dir, err)
	}
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f(file, raw)
	}
}
