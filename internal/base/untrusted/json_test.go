package untrusted

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestJSON(t *testing.T) {
	var cases []struct {
		Name string
		In   string
		Want string
		// NotJSON: a raw control character between tokens is marked too,
		// though the escape is no JSON there.
		NotJSON bool
	}
	readJSON(t, "json.json", &cases)
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			got := JSON([]byte(tt.In))
			if got != tt.Want {
				t.Errorf("JSON(%+q) = %+q, want %+q", tt.In, got, tt.Want)
			}
			var before, after any
			if json.Unmarshal([]byte(tt.In), &before) == nil && !tt.NotJSON {
				if err := json.Unmarshal([]byte(got), &after); err != nil {
					t.Fatalf("JSON(%+q) = %+q is no longer JSON: %v", tt.In, got, err)
				}
				b1, _ := json.Marshal(before)
				b2, _ := json.Marshal(after)
				if string(b1) != string(b2) {
					t.Errorf("JSON(%+q) changed the value: %s, then %s", tt.In, b1, b2)
				}
			}
			if i := strings.IndexFunc(got, func(r rune) bool { return r != '\n' && r != '\t' && unsafeRune(r) }); i >= 0 {
				t.Errorf("JSON(%+q) = %+q: unsafe rune at %d", tt.In, got, i)
			}
		})
	}
}
