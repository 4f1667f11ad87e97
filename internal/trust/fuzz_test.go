package trust

import (
	"testing"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

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
		l := InspectLink(untrusted.Text(raw))
		if l.Openable && (l.URL == nil || l.URL.Scheme != "http" && l.URL.Scheme != "https" || l.URL.Host == "") {
			t.Fatalf("InspectLink(%+q) is openable with URL %v", raw, l.URL)
		}
		if l.Openable != (l.Err == nil) {
			t.Fatalf("InspectLink(%+q): Openable %v with Err %v", raw, l.Openable, l.Err)
		}
		if l.Display != l.Before+l.Domain+l.After {
			t.Fatalf("InspectLink(%+q): Display %+q split as %+q %+q %+q", raw, l.Display, l.Before, l.Domain, l.After)
		}
		if !utf8.ValidString(l.Display) || untrusted.Text(l.Display).Line() != l.Display {
			t.Fatalf("InspectLink(%+q): Display %+q is not safe", raw, l.Display)
		}
	})
}
