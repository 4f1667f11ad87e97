package trust

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readJSON decodes testdata/name into v.
func readJSON(t testing.TB, name string, v any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// missing returns the first of parts that s does not contain.
func missing(s string, parts ...string) (string, bool) {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return p, true
		}
	}
	return "", false
}
