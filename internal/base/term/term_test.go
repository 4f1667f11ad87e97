package term

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestJSON prints values as a script reads them and a person sees them:
// indented, "<", ">" and "&" as written, a server's raw JSON the same.
func TestJSON(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{map[string]string{"message": "expected number to be <= 5 & > 1"}, "{\n  \"message\": \"expected number to be <= 5 & > 1\"\n}\n"},
		{json.RawMessage(`{"a":["<b>"]}`), "{\n  \"a\": [\n    \"<b>\"\n  ]\n}\n"},
	} {
		var out bytes.Buffer
		if err := To(&out).JSON(tt.v); err != nil {
			t.Fatal(err)
		}
		if out.String() != tt.want {
			t.Errorf("printed %q, want %q", out.String(), tt.want)
		}
	}
}
