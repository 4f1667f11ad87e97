package autostart

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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

// argsCase is one line of a quoting table: arguments and their rendering.
type argsCase struct {
	args []string
	want string
}

// readArgsCases reads testdata/name: a JSON array of arguments, a tab and
// the expected text a line; blank lines and # comments are skipped.
func readArgsCases(t *testing.T, name string) []argsCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []argsCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		args, want, ok := strings.Cut(line, "\t")
		var c argsCase
		if err := json.Unmarshal([]byte(args), &c.args); !ok || err != nil {
			t.Fatalf("%s:%d: want JSON arguments, a tab and the text (%v)", name, n, err)
		}
		c.want = want
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// namedEntry is an entry of entries.json or invalid.json.
type namedEntry struct {
	Name     string
	Entry    Entry
	ExecOnly bool // only Enable, which needs Exec, must refuse it
}
