package signin

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestStores: every Store keeps, returns and forgets a secret by server.
func TestStores(t *testing.T) {
	file := &File{Path: filepath.Join(t.TempDir(), "signins.json")}
	for name, s := range map[string]Store{"memory": NewMemory(), "file": file} {
		t.Run(name, func(t *testing.T) {
			if _, err := s.Load("https://a.example/mcp"); !errors.Is(err, ErrNoRecord) {
				t.Fatalf("empty store: %v", err)
			}
			s.Save("https://a.example/mcp", []byte(`{"a":1}`))
			s.Save("https://b.example/mcp", []byte(`{"b":2}`))
			if got, err := s.Load("https://a.example/mcp"); err != nil || string(got) != `{"a":1}` {
				t.Errorf("load: %s, %v", got, err)
			}
			if err := s.Delete("https://a.example/mcp"); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Load("https://a.example/mcp"); !errors.Is(err, ErrNoRecord) {
				t.Errorf("deleted: %v", err)
			}
			if got, _ := s.Load("https://b.example/mcp"); string(got) != `{"b":2}` {
				t.Errorf("the other server's secret went: %s", got)
			}
		})
	}
	fi, err := os.Stat(file.Path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the file is %v, want 0600", fi.Mode().Perm())
	}
}

func TestCovers(t *testing.T) {
	tests := []struct {
		resource, server string
		want             bool
	}{
		{"https://mcp.example.com/mcp", "https://mcp.example.com/mcp", true},
		{"https://mcp.example.com", "https://mcp.example.com/mcp", true},
		{"https://mcp.example.com/", "https://mcp.example.com/mcp", true},
		{"https://MCP.example.com/mcp", "https://mcp.example.com/mcp", true},
		{"https://evil.example.com/mcp", "https://mcp.example.com/mcp", false},
		{"https://mcp.example.com/mc", "https://mcp.example.com/mcp", false},
		{"https://mcp.example.com/mcp/deeper", "https://mcp.example.com/mcp", false},
		{"http://mcp.example.com/mcp", "https://mcp.example.com/mcp", false},
		{"https://mcp.example.com:444/mcp", "https://mcp.example.com/mcp", false},
		{"https://mcp.example.com/mcp#x", "https://mcp.example.com/mcp", false},
	}
	for _, tt := range tests {
		if got := covers(tt.resource, tt.server); got != tt.want {
			t.Errorf("covers(%q, %q) = %v", tt.resource, tt.server, got)
		}
	}
}

func TestCheckEndpoint(t *testing.T) {
	for u, ok := range map[string]bool{
		"https://auth.example.com/token": true,
		"http://127.0.0.1:8080/token":    true,
		"http://localhost:8080/token":    true,
		"http://[::1]:8080/token":        true,
		"http://auth.example.com/token":  false,
		"ftp://auth.example.com/token":   false,
		"/token":                         false,
		"https://auth.example.com/t#f":   false,
	} {
		if err := checkEndpoint("token endpoint", u); (err == nil) != ok {
			t.Errorf("%s: %v", u, err)
		}
	}
}
