package jsonnum

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	long := "1" + strings.Repeat("0", MaxText)
	for _, c := range []struct {
		text string
		want Problem
	}{
		{"0", OK},
		{"-0.0e5", OK},
		{"1e-300", OK},
		{"9007199254740993", OK},
		{"1e309", TooLarge},
		{"1e-400", TooSmall},
		{"1e-2000000", TooSmall},
		{"-0.0001e-2000000", TooSmall},
		{long, TooLong},
		{"01", NotNumber},
		{"1-2", NotNumber},
	} {
		if got := Check(c.text); got != c.want {
			t.Errorf("Check(%.20s) = %q, want %q", c.text, got, c.want)
		}
	}
}
