package link

import "testing"

// TestParamsName names the request in Mcp-Name: a tool, prompt or
// resource, or the task a tasks extension request is about.
func TestParamsName(t *testing.T) {
	for _, tt := range []struct{ raw, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sql"}}`, "sql"},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a"}}`, "file:///a"},
		{`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t-1"}}`, "t-1"},
		{`{"jsonrpc":"2.0","id":1,"method":"tasks/update","params":{"taskId":"t-1","inputResponses":{}}}`, "t-1"},
		{`{"jsonrpc":"2.0","id":1,"method":"tasks/cancel","params":{"taskId":"t-1"}}`, "t-1"},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"x"}}`, ""},
	} {
		m, err := Parse([]byte(tt.raw))
		if err != nil {
			t.Fatal(err)
		}
		if got := paramsName(m); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.raw, got, tt.want)
		}
	}
}
