package signin

import (
	"encoding/json"
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

// TestFileKeepsWhatAnotherProcessSaved: a sign-in saved by another
// process between an update's read and its write stays, and so does the
// update's; the file stays its owner's alone, whatever mode it was given.
func TestFileKeepsWhatAnotherProcessSaved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signins.json")
	app, cli := &File{Path: path}, &File{Path: path} // two processes' views
	if err := app.Save("https://a.example/mcp", []byte(`{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	meanwhile := true
	err := app.update(func(m map[string]json.RawMessage) {
		if meanwhile { // the command line saves its sign-in now
			meanwhile = false
			if err := cli.Save("https://b.example/mcp", []byte(`{"b":2}`)); err != nil {
				t.Fatal(err)
			}
		}
		m["https://c.example/mcp"] = json.RawMessage(`{"c":3}`)
	})
	if err != nil {
		t.Fatal(err)
	}
	for server, want := range map[string]string{"https://a.example/mcp": `{"a":1}`, "https://b.example/mcp": `{"b":2}`, "https://c.example/mcp": `{"c":3}`} {
		if got, err := app.Load(server); err != nil || string(got) != want {
			t.Errorf("%s: %s, %v; want %s", server, got, err, want)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file is %v (%v), want 0600", fi.Mode().Perm(), err)
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
