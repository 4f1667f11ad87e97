package wire

import (
	"strings"
	"testing"
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
			case tt.reason != "" && (err == nil || err.Code != CodeInvalidParams || !strings.Contains(err.Message, tt.reason)):
				t.Fatalf("want -32602 saying %q, got %v", tt.reason, err)
			}
		})
	}
}

// TestReadHead checks that the id and method of a request are read
// whatever its params hold, and from a message cut short after them.
func TestReadHead(t *testing.T) {
	deep := strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000)
	tests := []struct {
		name, msg, id, method string
	}{
		{"deep params", `{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"x":` + deep + `}}`, "int64:7", "elicitation/create"},
		{"id after params", `{"params":{"id":1,"method":"no"},"method":"m", "id" : "s"}`, "string:s", "m"},
		{"cut short", `{"jsonrpc":"2.0","id":"a","method":"elicitation/create","params":{"message":"xxx`, "string:a", "elicitation/create"},
		{"response", `{"jsonrpc":"2.0","id":3,"result":{}}`, "int64:3", ""},
		{"key in a string value", `{"a":"\"id\":9","id":1,"method":"x"}`, "int64:1", "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := readHead([]byte(tt.msg))
			id, ok := h.ID()
			if !ok || id.String() != tt.id || h.Method() != tt.method {
				t.Fatalf("id %v %v method %q", id, ok, h.Method())
			}
		})
	}
	if !isRequest([]byte(`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"x":` + deep + `}}`)) {
		t.Error("a deep request is not taken for one: mcp-go would drop it")
	}
}

// TestEnvelope checks that the envelope of a message read one byte at a
// time holds its last top-level id and method, nil when it has none and
// empty when too long, and whether it answers.
func TestEnvelope(t *testing.T) {
	tests := []struct {
		name, msg  string
		id, method []byte
		answer     bool
	}{
		{"after params", `{"method":"m","params":{"id":1,"s":"\"id\":2"},"id":"a,}"}`, []byte(`"a,}"`), []byte(`"m"`), false},
		{"spaced, last of two", `{"id":1, "id" : 7 }`, []byte(`7`), nil, false},
		{"key in a value", `{"a":"id","b":{"id":3,"method":"m"}}`, nil, nil, false},
		{"escaped key", `{"i\d":3}`, nil, nil, false},
		{"longer key", `{"idx":3,"methods":"m"}`, nil, nil, false},
		{"object id", `{"id":{"a":[1,2]}}`, []byte(`{"a":[1,2]}`), nil, false},
		{"too long", `{"id":"` + strings.Repeat("x", maxIDText) + `"}`, []byte{}, nil, false},
		{"cut short", `{"id":"abc`, nil, nil, false},
		{"result", `{"jsonrpc":"2.0","result":{"id":2,"method":"m"},"id":1}`, []byte(`1`), nil, true},
		{"error, cut short", `{"id":"e","error":{"message":"`, []byte(`"e"`), nil, true},
		{"method too long", `{"method":"` + strings.Repeat("m", maxIDText) + `","id":1}`, []byte(`1`), []byte{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s envelope
			for i := range len(tt.msg) {
				s.write([]byte{tt.msg[i]})
			}
			if (s.id == nil) != (tt.id == nil) || string(s.id) != string(tt.id) {
				t.Errorf("id %q (nil %v), want %q (nil %v)", s.id, s.id == nil, tt.id, tt.id == nil)
			}
			if (s.method == nil) != (tt.method == nil) || string(s.method) != string(tt.method) {
				t.Errorf("method %q (nil %v), want %q (nil %v)", s.method, s.method == nil, tt.method, tt.method == nil)
			}
			if s.answer != tt.answer {
				t.Errorf("answer %v, want %v", s.answer, tt.answer)
			}
		})
	}
}
