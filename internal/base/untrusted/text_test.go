package untrusted

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	for _, tt := range readTextCases(t) {
		t.Run(tt.name, func(t *testing.T) {
			got := Text(tt.in).Block()
			if got != tt.want {
				t.Errorf("Text(%+q) = %+q, want %+q", tt.in, got, tt.want)
			}
			if again := Text(got).Block(); again != got {
				t.Errorf("Text is not idempotent: %+q then %+q", got, again)
			}
		})
	}
}

func TestHeadline(t *testing.T) {
	tests := []struct {
		message string
		max     int
		want    string
	}{
		{"Deploy now?", 40, "Deploy now?"},
		{"\n  \n  First line  \nsecond", 40, "First line"},
		{"Ünïcödé characters count as one", 10, "Ünïcödé…"}, // cut at a space near the limit
		{"exactly ten", 11, "exactly ten"},
		{"no limit at all", 0, "no limit at all"},
		{"", 10, ""},
		{"\x1b[2Jclear\tscreen\r\nnext", 40, "⟨U+001B⟩[2Jclear screen"},
		{"\u202egnp.exe", 40, "⟨U+202E⟩gnp.exe"},
	}
	for _, tt := range tests {
		if got := Text(tt.message).Headline(tt.max); got != tt.want {
			t.Errorf("Headline(%q, %d) = %q, want %q", tt.message, tt.max, got, tt.want)
		}
	}
}

// TestShort: a name on one line, cut with an ellipsis to at most max
// characters, so that 500 of them cannot widen a menu or a title.
func TestShort(t *testing.T) {
	tests := []struct {
		name string
		max  int
		want string
	}{
		{"demo", 24, "demo"},
		{"exactly ten", 11, "exactly ten"},
		{"one character more", 17, "one character…"},
		{strings.Repeat("n", 500), 32, strings.Repeat("n", 31) + "…"},
		{"two\nlines", 24, "two⟨U+000A⟩lines"},
		{"\u202egnp.exe", 24, "⟨U+202E⟩gnp.exe"},
	}
	for _, tt := range tests {
		got := Text(tt.name).Short(tt.max)
		if got != tt.want {
			t.Errorf("Short(%.40q, %d) = %q, want %q", tt.name, tt.max, got, tt.want)
		}
		if n := len([]rune(got)); n > tt.max {
			t.Errorf("Short(%.40q, %d) has %d characters", tt.name, tt.max, n)
		}
	}
}

// TestHeadlineOfALongMessage: Headline reads only the start of a long
// message, and says the same as it would over all of it.
func TestHeadlineOfALongMessage(t *testing.T) {
	long := strings.Repeat("word ", 13_000) // 65 KB on one line
	for _, msg := range []string{"first line\n" + long, long, "\u202e" + long} {
		full, _, _ := strings.Cut(Text(msg).Block(), "\n")
		head, _ := Fold(strings.TrimSpace(full), 119)
		if got := Text(msg).Headline(120); got != head+"…" && got != full {
			t.Errorf("Headline(%.20q…) = %q, want %q", msg, got, head+"…")
		}
	}
}

// BenchmarkHeadline is one row of the History list for a request whose
// message the history kept at its full 64 KB.
func BenchmarkHeadline(b *testing.B) {
	msg := Text("first line\n" + strings.Repeat("word ", 13_000))
	for range b.N {
		msg.Headline(120)
	}
}
