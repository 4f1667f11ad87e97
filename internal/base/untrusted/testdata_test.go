package untrusted

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
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

// unsafeRune reports what Text must never let through: control characters
// but \n and \t, bidi controls, line separators, and format characters
// other than the joiners and the prepended marks it keeps.
func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t' || r == zwj || r == zwnj:
		return false
	case unicode.Is(unicode.Prepended_Concatenation_Mark, r):
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Bidi_Control, unicode.Zl, unicode.Zp)
}

// FuzzText checks that Text's output is valid UTF-8, holds nothing unsafe
// and is left alone by a second pass.
func FuzzText(f *testing.F) {
	for _, c := range readTextCases(f) {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Text(s).Block()
		if !utf8.ValidString(got) {
			t.Fatalf("Text(%+q) = %+q, not UTF-8", s, got)
		}
		if i := strings.IndexFunc(got, unsafeRune); i >= 0 {
			t.Fatalf("Text(%+q) = %+q, unsafe rune at %d", s, got, i)
		}
		if again := Text(got).Block(); again != got {
			t.Fatalf("Text(%+q) = %+q, then %+q", s, got, again)
		}
	})
}
