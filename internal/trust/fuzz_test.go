package trust

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

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
		got := Text(s)
		if !utf8.ValidString(got) {
			t.Fatalf("Text(%+q) = %+q, not UTF-8", s, got)
		}
		if i := strings.IndexFunc(got, unsafeRune); i >= 0 {
			t.Fatalf("Text(%+q) = %+q, unsafe rune at %d", s, got, i)
		}
		if again := Text(got); again != got {
			t.Fatalf("Text(%+q) = %+q, then %+q", s, got, again)
		}
	})
}

// FuzzInspectLink checks that no link panics, that only http and https
// links that parsed are openable, and that the display form is split whole
// and safe to show.
func FuzzInspectLink(f *testing.F) {
	var cases []struct{ Raw string }
	readJSON(f, "links.json", &cases)
	for _, c := range cases {
		f.Add(c.Raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		l := InspectLink(raw)
		if l.Openable && (l.URL == nil || l.URL.Scheme != "http" && l.URL.Scheme != "https" || l.URL.Host == "") {
			t.Fatalf("InspectLink(%+q) is openable with URL %v", raw, l.URL)
		}
		if l.Openable != (l.Err == nil) {
			t.Fatalf("InspectLink(%+q): Openable %v with Err %v", raw, l.Openable, l.Err)
		}
		if l.Display != l.Before+l.Domain+l.After {
			t.Fatalf("InspectLink(%+q): Display %+q split as %+q %+q %+q", raw, l.Display, l.Before, l.Domain, l.After)
		}
		if !utf8.ValidString(l.Display) || strings.IndexFunc(l.Display, func(r rune) bool { return r == '\n' || r == '\t' || unsafeRune(r) }) >= 0 {
			t.Fatalf("InspectLink(%+q): Display %+q is not safe", raw, l.Display)
		}
	})
}
