package link

import "testing"

func BenchmarkParse(b *testing.B) {
	raw := []byte(`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello there, this is a message"},"_meta":{"progressToken":12}}}`)
	for b.Loop() {
		if _, err := Parse(raw); err != nil {
			b.Fatal(err)
		}
	}
}
