package trust

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
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

// textCase is one line of testdata/text.txt.
type textCase struct{ name, in, want string }

// readTextCases reads testdata/text.txt: NAME <TAB> "IN" <TAB> "WANT" a
// line, the strings Go-quoted; blank lines and # comments are skipped.
func readTextCases(t testing.TB) []textCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "text.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []textCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			t.Fatalf("text.txt:%d: want 3 tab-separated fields, have %d", n, len(fields))
		}
		in, err1 := strconv.Unquote(fields[1])
		want, err2 := strconv.Unquote(fields[2])
		if err1 != nil || err2 != nil {
			t.Fatalf("text.txt:%d: unquote: %v %v", n, err1, err2)
		}
		cases = append(cases, textCase{fields[0], in, want})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
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
