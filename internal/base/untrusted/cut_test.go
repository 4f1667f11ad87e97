package untrusted

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/internal/testkit/hostile"
)

// cutCase is one case of testdata/cut.json.
type cutCase struct {
	Name string
	In   string
	Max  int
	Want string
}

func TestCut(t *testing.T) {
	var cases []cutCase
	readJSON(t, "cut.json", &cases)
	// What JSON cannot hold: bytes that are not UTF-8, each written as \ufffd.
	cases = append(cases, cutCase{"bytes that are not UTF-8", "\xff\xfe" + strings.Repeat("b", 30), 40, "\xff…⟨cut: 32 bytes in all⟩"})
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			got := Text(tt.In).Cut(tt.Max)
			if string(got) != tt.Want {
				t.Errorf("Cut(%+q, %d) = %+q, want %+q", tt.In, tt.Max, string(got), tt.Want)
			}
			checkCut(t, tt.In, tt.Max)
		})
	}
}

// TestCutHostile cuts every hostile string, and each repeated to 7 MiB, to
// the bounds peers' words are kept within.
func TestCutHostile(t *testing.T) {
	strs, err := hostile.Strings()
	if err != nil {
		t.Fatal(err)
	}
	strs = append(strs, hostile.String{Name: "flood", Text: hostile.Flood()})
	for _, h := range strs {
		for _, in := range []string{h.Text, strings.Repeat(h.Text, 7<<20/len(h.Text))} {
			for _, bound := range []int{NameBytes, ProseBytes} {
				checkCut(t, in, bound)
			}
		}
	}
}

// TestCutSevenMiB is issue 32's server name: 7 MiB of U+2028, 14 MiB once
// JSON escapes it.
func TestCutSevenMiB(t *testing.T) {
	in := hostile.Flood()
	got := string(Text(in).Cut(NameBytes))
	if want := "…⟨cut: 7,340,031 bytes in all⟩"; !strings.HasSuffix(got, want) {
		t.Errorf("Cut ends %+q, want %+q", got[max(0, len(got)-40):], want)
	}
	if strings.Count(got, "\u2028") < 10 {
		t.Errorf("Cut kept %d of the line separators; want the head to fill the room", strings.Count(got, "\u2028"))
	}
}

// checkCut checks what Cut promises of in and bound: the bound, as JSON;
// the head a prefix of in at a rune boundary, followed by the marker,
// which reads as it is through the views; valid UTF-8 kept valid; and a
// second pass that changes nothing.
func checkCut(t *testing.T, in string, bound int) {
	t.Helper()
	out := string(Text(in).Cut(bound))
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(b) - 2; n > max(bound, 0) {
		t.Errorf("Cut(%d bytes, %d) is %d bytes of JSON", len(in), bound, n)
	}
	if utf8.ValidString(in) && !utf8.ValidString(out) {
		t.Errorf("Cut(%+q, %d) = %+q is not UTF-8", in, bound, out)
	}
	if again := string(Text(out).Cut(bound)); again != out {
		t.Errorf("Cut(Cut(%d bytes, %d)) changed it again: %+q, then %+q", len(in), bound, out, again)
	}
	if out == in {
		return
	}
	mark := cutMark(len(in))
	head, marked := strings.CutSuffix(out, mark)
	switch {
	case !marked && out != ellipsis && out != "":
		t.Errorf("Cut(%d bytes, %d) = %+q: no marker", len(in), bound, out)
	case marked && !strings.HasPrefix(in, head):
		t.Errorf("Cut(%d bytes, %d) = %+q: the head is not the text's", len(in), bound, out)
	case marked && !runeBoundary(in, len(head)):
		t.Errorf("Cut(%d bytes, %d) = %+q: cut within a rune", len(in), bound, out)
	case marked && (!strings.HasSuffix(Text(out).Line(), mark) || !strings.HasSuffix(Text(out).Block(), mark)):
		t.Errorf("Cut(%d bytes, %d) = %+q: the marker does not read as it is once shown", len(in), bound, out)
	}
}

// runeBoundary reports whether s[:i] ends where a rune, or a byte that is
// not UTF-8, ends.
func runeBoundary(s string, i int) bool {
	at := 0
	for at < i {
		_, size := utf8.DecodeRuneInString(s[at:])
		at += size
	}
	return at == i
}

// FuzzCut checks checkCut's promises on any text and bound.
func FuzzCut(f *testing.F) {
	for _, c := range readTextCases(f) {
		f.Add(c.in, 8)
		f.Add(c.in, 30)
	}
	f.Add(strings.Repeat("\u2028", 100), NameBytes)
	f.Fuzz(func(t *testing.T, in string, bound int) {
		checkCut(t, in, bound%(2*NameBytes))
	})
}
