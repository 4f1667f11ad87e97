package servers

import (
	"encoding/json"
	"os"
	"testing"
)

// TestHostInfo: a host is called by its own title, else by the name people
// know its clientInfo.name by, else by that name as sent, made safe to show
// (testdata/hosts/names.json).
func TestHostInfo(t *testing.T) {
	raw, err := os.ReadFile("testdata/hosts/names.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		What          string
		Host          HostInfo
		Label, String string
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.What, func(t *testing.T) {
			if got := tc.Host.Label(); got != tc.Label {
				t.Errorf("Label = %q, want %q", got, tc.Label)
			}
			if got := tc.Host.String(); got != tc.String {
				t.Errorf("String = %q, want %q", got, tc.String)
			}
		})
	}
}
