package untrusted

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFold(t *testing.T) {
	var cases []struct {
		Name   string
		In     string
		Max    int
		Head   string
		Folded bool
	}
	readJSON(t, "fold.json", &cases)
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			head, folded := Fold(tt.In, tt.Max)
			if head != tt.Head || folded != tt.Folded {
				t.Errorf("Fold(%q, %d) = %q, %v; want %q, %v", tt.In, tt.Max, head, folded, tt.Head, tt.Folded)
			}
			if !strings.HasPrefix(tt.In, head) || utf8.RuneCountInString(head) > max(tt.Max, 0) {
				t.Errorf("head %q is not a prefix of at most %d runes", head, tt.Max)
			}
		})
	}
}
