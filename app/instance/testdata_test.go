package instance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// readJSON decodes testdata/name into v.
func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
