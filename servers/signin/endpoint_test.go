package signin

import (
	"net/url"
	"testing"
)

// TestSameOrigin: scheme, host and port, a default port the same as none.
func TestSameOrigin(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"https://mcp.example.com/mcp", "https://mcp.example.com/other", true},
		{"https://mcp.example.com/mcp", "https://MCP.example.com:443/mcp", true},
		{"http://127.0.0.1/mcp", "http://127.0.0.1:80/", true},
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8081/mcp", false},
		{"http://localhost:8080/mcp", "http://127.0.0.1:8080/mcp", false},
		{"https://mcp.example.com/mcp", "http://mcp.example.com/mcp", false},
		{"https://mcp.example.com:443/", "http://mcp.example.com:443/", false},
		{"https://mcp.example.com/", "https://evil.example.com/", false},
	}
	for _, tt := range tests {
		a, _ := url.Parse(tt.a)
		b, _ := url.Parse(tt.b)
		if got := sameOrigin(a, b); got != tt.want {
			t.Errorf("sameOrigin(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
