// Package hostile is the text a hostile server or host sends, read from
// testdata/hostile/strings.json at the module's root. Every window and
// every command is tested with it; only tests use this package.
package hostile

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// String is one hostile text, by its name in the file.
type String struct{ Name, Text string }

// Strings reads the file, in name order, from the module root above the
// working directory, which is a package's folder when its tests run.
func Strings() ([]String, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	raw, err := os.ReadFile(filepath.Join(root, "testdata", "hostile", "strings.json"))
	if err != nil {
		return nil, err
	}
	var file struct{ Strings map[string]string }
	if err := json.Unmarshal(raw, &file); err != nil {
		return nil, err
	}
	var out []String
	for _, name := range slices.Sorted(maps.Keys(file.Strings)) {
		out = append(out, String{name, file.Strings[name]})
	}
	return out, nil
}

// moduleRoot is the nearest folder at or above the working directory that
// holds go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Flood is issue 32's server name: 7 MiB of U+2028, legal in a message
// under the 8 MiB limit and 14 MiB once JSON escapes it.
func Flood() string { return strings.Repeat("\u2028", 7<<20/3) }

// RawJSON is s as a JSON string with its line separators raw, as JSON
// allows and a hostile peer may send them: Flood so fits in a message.
func RawJSON(s string) string {
	b, _ := json.Marshal(s) // a string always encodes
	return strings.ReplaceAll(string(b), `\u2028`, "\u2028")
}
