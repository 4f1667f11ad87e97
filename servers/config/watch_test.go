package config

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/leaktest"
)

func TestWatchConfig(t *testing.T) {
	ended := leaktest.Check(t)
	path := copyFile(t, filepath.Join("testdata", "valid", "stdio.json"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	type result struct {
		c   *File
		err error
	}
	results := make(chan result, 16)
	err := Watch(ctx, path, func(c *File, err error) {
		select {
		case results <- result{c, err}:
		case <-ctx.Done():
		}
	})
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}

	// waitFor skips reloads of intermediate states, such as a file caught half written.
	waitFor := func(what string, ok func(result) bool) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case r := <-results:
				if ok(r) {
					return
				}
			case <-deadline:
				t.Fatalf("no reload with %s", what)
			}
		}
	}
	hasOnly := func(name string) func(result) bool {
		return func(r result) bool {
			return r.err == nil && len(r.c.Servers) == 1 && r.c.Servers[0].Name == name && r.c.Path == path
		}
	}
	write := func(p, data string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	write(path, `{"mcpServers": {"written": {"command": "w"}}}`)
	waitFor(`server "written" after an in-place write`, hasOnly("written"))

	tmp := filepath.Join(filepath.Dir(path), "servers.json.swp")
	write(tmp, `{"mcpServers": {"replaced": {"url": "https://example.com/mcp"}}}`)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	waitFor(`server "replaced" after a rename over the file`, hasOnly("replaced"))

	write(path, "{\n")
	const wantErr = "servers.json:1:2: unexpected end of JSON input"
	waitFor("error "+wantErr, func(r result) bool { return r.err != nil && r.err.Error() == wantErr })

	cancel()
	ended()
}

func TestWatchConfigMissingDir(t *testing.T) {
	ended := leaktest.Check(t)
	path := filepath.Join(t.TempDir(), "absent", "servers.json")
	err := Watch(context.Background(), path, func(*File, error) {
		t.Error("onChange called for a watch that never started")
	})
	if err == nil {
		t.Fatal("Watch succeeded on a missing directory")
	}
	ended()
}
