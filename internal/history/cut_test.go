package history

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// TestCutKeepsAPrefix checks that Add keeps at most the limits of each
// outcome, with the whole's size and SHA-256, and the schema still JSON.
func TestCutKeepsAPrefix(t *testing.T) {
	bigSchema := `{"type":"object","description":"` + strings.Repeat("d", 1<<20) + `"}`
	tests := []struct {
		name                  string
		outcome               Outcome
		message               string
		schema                string
		maxMessage, maxSchema int
		cut                   bool
	}{
		{"small kept whole", Declined, "hello", `{"type":"object"}`, MaxMessageBytes, MaxSchemaBytes, false},
		{"1 MB message", Declined, strings.Repeat("é", 1<<19), `{"type":"object"}`, MaxMessageBytes, MaxSchemaBytes, true},
		{"1 MB schema", Accepted, "m", bigSchema, MaxMessageBytes, MaxSchemaBytes, true},
		{"refused", RateLimited, strings.Repeat("x", 1<<20), bigSchema, MaxRefusedMessageBytes, MaxRefusedSchemaBytes, true},
	}
	s := newStore(t)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := Entry{Message: untrusted.Text(tt.message), Mode: "form", Schema: json.RawMessage(tt.schema), Outcome: tt.outcome,
				Received: time.UnixMilli(int64(1_000_000 + i))}
			id, err := s.Add(t.Context(), e)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Get(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Message) > tt.maxMessage || !strings.HasPrefix(tt.message, string(got.Message)) {
				t.Errorf("message of %d bytes kept", len(got.Message))
			}
			var prefix string
			if got.Cut != nil && len(tt.schema) > tt.maxSchema && (json.Unmarshal(got.Schema, &prefix) != nil || len(prefix) > tt.maxSchema || !strings.HasPrefix(tt.schema, prefix)) {
				t.Errorf("schema kept as %.80s", got.Schema)
			}
			if (got.Cut != nil) != tt.cut {
				t.Fatalf("cut %+v", got.Cut)
			}
			if tt.cut {
				sum := sha256.Sum256([]byte(tt.message + tt.schema))
				if got.Cut.Size != int64(len(tt.message)+len(tt.schema)) || got.Cut.SHA256 != hex.EncodeToString(sum[:]) {
					t.Errorf("cut %+v", got.Cut)
				}
			}
		})
	}
}

// TestCutSchemaStaysSmall: a cut schema full of < > & is stored about as
// long as its prefix, not six times longer through HTML escaping.
func TestCutSchemaStaysSmall(t *testing.T) {
	e := Shorten(Entry{Outcome: Declined, Schema: []byte(strings.Repeat("<&>", MaxSchemaBytes))})
	if e.Cut == nil || len(e.Schema) > MaxSchemaBytes+2 {
		t.Fatalf("stored schema is %d bytes for a prefix of %d", len(e.Schema), MaxSchemaBytes)
	}
	var prefix string
	if err := json.Unmarshal(e.Schema, &prefix); err != nil || !strings.HasPrefix(prefix, "<&><&>") {
		t.Errorf("stored schema %.40q is not the prefix as a JSON string (%v)", e.Schema, err)
	}
}
