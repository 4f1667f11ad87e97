package servers

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// waitForGoroutines fails unless the goroutine count drops back to baseline.
func waitForGoroutines(t *testing.T, baseline int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > baseline {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, want %d:\n%s", runtime.NumGoroutine(), baseline, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestWatchConfig(t *testing.T) {
	baseline := runtime.NumGoroutine()
	path := copyFile(t, filepath.Join("testdata", "config", "valid", "stdio.json"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	type result struct {
		c   *Config
		err error
	}
	results := make(chan result, 16)
	err := WatchConfig(ctx, path, func(c *Config, err error) {
		select {
		case results <- result{c, err}:
		case <-ctx.Done():
		}
	})
	if err != nil {
		t.Fatalf("WatchConfig: %v", err)
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
	waitForGoroutines(t, baseline)
}

func TestWatchConfigMissingDir(t *testing.T) {
	baseline := runtime.NumGoroutine()
	path := filepath.Join(t.TempDir(), "absent", "servers.json")
	err := WatchConfig(context.Background(), path, func(*Config, error) {
		t.Error("onChange called for a watch that never started")
	})
	if err == nil {
		t.Fatal("WatchConfig succeeded on a missing directory")
	}
	waitForGoroutines(t, baseline)
}
