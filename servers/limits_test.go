package servers

import (
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

func TestCheckParams(t *testing.T) {
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	tests := []struct {
		name, params, reason string // reason "" means accepted
	}{
		{"plain", `{"message":"m","n":1.5e300}`, ""},
		{"escaped quote and brackets in strings", `{"message":"\"[[[{{"}`, ""},
		{"1e400", `{"n":1e400}`, "number out of range"},
		{"-1e400 in an array", `{"n":[1,-1e400]}`, "number out of range"},
		{"1e-2000000 underflows", `{"n":1e-2000000}`, "number out of range"},
		{"401 digits", `{"n":1` + strings.Repeat("0", 400) + `}`, "number out of range"},
		{"0e-2000000 is zero", `{"n":0e-2000000}`, ""},
		{"100,000 deep", `{"x":` + deep + `}`, "100001 levels deep"},
		{"just over MaxDepth", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), "levels deep"},
		{"at MaxDepth", strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), ""},
		{"too large", `"` + strings.Repeat("x", MaxParams) + `"`, "4.0 MB"},
		{"not UTF-8", "{\"m\":\"\xff\"}", "UTF-8"},
		{"not JSON", `{"m":`, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckParams([]byte(tt.params))
			switch {
			case tt.reason == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.reason != "" && (err == nil || err.Code != jsonrpc.CodeInvalidParams || !strings.Contains(err.Message, tt.reason)):
				t.Fatalf("want -32602 saying %q, got %v", tt.reason, err)
			}
		})
	}
}
