package link

import (
	"strings"
	"testing"
)

// TestEnvelope checks that the envelope of a message read one byte at a
// time holds its last top-level id and method, nil when it has none and
// empty when too long.
func TestEnvelope(t *testing.T) {
	tests := []struct {
		name, msg  string
		id, method []byte
	}{
		{"after params", `{"method":"m","params":{"id":1,"s":"\"id\":2"},"id":"a,}"}`, []byte(`"a,}"`), []byte(`"m"`)},
		{"spaced, last of two", `{"id":1, "id" : 7 }`, []byte(`7`), nil},
		{"key in a value", `{"a":"id","b":{"id":3,"method":"m"}}`, nil, nil},
		{"escaped key", `{"i\d":3}`, nil, nil},
		{"longer key", `{"idx":3,"methods":"m"}`, nil, nil},
		{"object id", `{"id":{"a":[1,2]}}`, []byte(`{"a":[1,2]}`), nil},
		{"too long", `{"id":"` + strings.Repeat("x", maxIDText) + `"}`, []byte{}, nil},
		{"cut short", `{"id":"abc`, nil, nil},
		{"result", `{"jsonrpc":"2.0","result":{"id":2,"method":"m"},"id":1}`, []byte(`1`), nil},
		{"error, cut short", `{"id":"e","error":{"message":"`, []byte(`"e"`), nil},
		{"method too long", `{"method":"` + strings.Repeat("m", maxIDText) + `","id":1}`, []byte(`1`), []byte{}},
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
		})
	}
}
