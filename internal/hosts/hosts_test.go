package hosts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestKnownPaths: each host's config path on each OS, and the variables
// and files that move it. (Paths use / here; on Windows filepath.Join writes \.)
func TestKnownPaths(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "paths.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		GOOS    string
		Env     map[string]string
		Exists  []string          // the files that are there
		Pointer *string           // what ~/.lmstudio-home-pointer says, if it is there
		Paths   map[string]string // "" for a host not known on the OS
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		exists := func(p string) bool { return slices.Contains(c.Exists, filepath.ToSlash(p)) }
		readFile := func(p string) ([]byte, error) {
			if c.Pointer == nil || filepath.ToSlash(p) != "/home/ada/.lmstudio-home-pointer" {
				return nil, os.ErrNotExist
			}
			return []byte(*c.Pointer), nil
		}
		known := Known(Env{GOOS: c.GOOS, Home: "/home/ada", Getenv: func(k string) string { return c.Env[k] }, Exists: exists, ReadFile: readFile})
		for id, want := range c.Paths {
			h, ok := Lookup(known, id)
			if got := filepath.ToSlash(h.Config); ok != (want != "") || got != want {
				t.Errorf("%s %v: %s is at %q, want %q", c.GOOS, c.Env, id, got, want)
			}
		}
	}
}
