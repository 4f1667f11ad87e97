package untrusted

import "testing"

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
