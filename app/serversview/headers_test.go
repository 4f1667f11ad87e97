package serversview

import (
	"encoding/json"
	"maps"
	"testing"
)

func TestParseHeaderLines(t *testing.T) {
	forEachFile(t, "headers", func(file string, raw []byte) {
		var cases []struct {
			Name, Text, Err string
			Want            map[string]string
		}
		if err := json.Unmarshal(raw, &cases); err != nil {
			t.Fatal(file, err)
		}
		for _, tc := range cases {
			errs := formErrors{}
			got := parseHeaderLines(tc.Text, errs)
			if errs[fieldHeaders] != tc.Err || !maps.Equal(got, tc.Want) || (got == nil) != (tc.Want == nil) {
				t.Errorf("%s: %s: got %q, error %q; want %q, error %q", file, tc.Name, got, errs[fieldHeaders], tc.Want, tc.Err)
			}
		}
	})
}

// Headers shown in the dialog and read back are the same headers.
func TestHeaderLinesRoundTrip(t *testing.T) {
	in := map[string]string{"Authorization": "Bearer t", "X-When": "16:02", "X-Empty": ""}
	got := parseHeaderLines(headerLines(in), formErrors{})
	if !maps.Equal(got, in) {
		t.Errorf("round trip %q, want %q", got, in)
	}
}
