package history

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestRedact runs the cases of testdata/redact.json: content in, content as
// stored out, byte for byte once compacted.
func TestRedact(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "redact.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name                  string
		Schema, Content, Want json.RawMessage
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			var want bytes.Buffer
			if err := json.Compact(&want, tt.Want); err != nil {
				t.Fatal(err)
			}
			got := redact(tt.Schema, tt.Content)
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("redact gave %s, want %s", got, want.Bytes())
			}
			if !json.Valid(got) {
				t.Errorf("%s is not JSON", got)
			}
		})
	}
}

func TestRedactNothingSent(t *testing.T) {
	for _, content := range []json.RawMessage{nil, {}} {
		if got := redact(json.RawMessage(`{"type":"object"}`), content); got != nil {
			t.Errorf("redact(%q) = %s, want nil", content, got)
		}
	}
}
