package config

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/testkit/leaktest"
)

func TestWatchConfig(t *testing.T) {
	ended := leaktest.Check(t)
	path := copyFile(t, filepath.Join("testdata", "valid", "stdio.json"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	waitFor := watchResults(t, ctx, path)
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

// result is one call of Watch's onChange.
type result struct {
	c   *File
	err error
}

// watchResults starts Watch on path and returns a function that waits for
// a reload satisfying ok, skipping reloads of intermediate states such as a
// file caught half written.
func watchResults(t *testing.T, ctx context.Context, path string) func(what string, ok func(result) bool) {
	t.Helper()
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
	return func(what string, ok func(result) bool) {
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

// TestWatchSymlink shares servers.json through a symlink, as dotfiles
// setups do, and changes it in each way a user or editor can.
func TestWatchSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	entry := func(name string) string {
		return `{"mcpServers": {"` + name + `": {"command": "c"}}}`
	}
	// writeFile writes data to p and makes it 0644 whatever the umask.
	writeFile := func(t *testing.T, p, data string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// repoint makes link point at dest atomically, as ln -sfn does.
	repoint := func(t *testing.T, link, dest string) {
		t.Helper()
		tmp := link + ".new"
		if err := os.Symlink(dest, tmp); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, link); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		// change changes the file seen through link, whose chain ends at
		// target, so that it holds only a server called want; wait waits
		// for a reload holding only the server it names.
		change func(t *testing.T, link, target string, wait func(string)) (want string)
	}{
		{"edit the target", func(t *testing.T, link, target string, wait func(string)) string {
			writeFile(t, target, entry("edited"))
			return "edited"
		}},
		{"editor replaces the target", func(t *testing.T, link, target string, wait func(string)) string {
			tmp := filepath.Join(filepath.Dir(target), ".real.json.swp")
			writeFile(t, tmp, entry("replaced"))
			if err := os.Rename(tmp, target); err != nil {
				t.Fatal(err)
			}
			return "replaced"
		}},
		{"save through the link", func(t *testing.T, link, target string, wait func(string)) string {
			c, err := Load(link)
			if err != nil {
				t.Fatal(err)
			}
			c.Servers[0].Name = "saved"
			if err := c.Save(); err != nil {
				t.Fatalf("Save: %v", err)
			}
			return "saved"
		}},
		{"re-point the link, then edit the new target", func(t *testing.T, link, target string, wait func(string)) string {
			other := filepath.Join(t.TempDir(), "other.json")
			writeFile(t, other, entry("other"))
			repoint(t, link, other)
			wait("other")
			// Only a watch on the new target's directory sees this edit.
			writeFile(t, other, entry("other-edited"))
			return "other-edited"
		}},
	}
	for _, chained := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/chained=%v", tt.name, chained), func(t *testing.T) {
				ended := leaktest.Check(t)
				target := filepath.Join(t.TempDir(), "real.json")
				writeFile(t, target, entry("first"))
				link := filepath.Join(t.TempDir(), "servers.json")
				if chained { // servers.json -> middle.json -> real.json, each in its own directory
					middle := filepath.Join(t.TempDir(), "middle.json")
					if err := os.Symlink(target, middle); err != nil {
						t.Fatal(err)
					}
					target = middle
				}
				if err := os.Symlink(target, link); err != nil {
					t.Fatal(err)
				}
				if chained {
					target, _ = filepath.EvalSymlinks(target)
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				waitFor := watchResults(t, ctx, link)
				wait := func(name string) {
					t.Helper()
					waitFor(fmt.Sprintf("server %q", name), func(r result) bool {
						return r.err == nil && len(r.c.Servers) == 1 && r.c.Servers[0].Name == name && r.c.Path == link
					})
				}

				wait(tt.change(t, link, target, wait))
				if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("servers.json is no longer a symlink: %v (%v)", fi.Mode(), err)
				}
				if fi, err := os.Stat(link); err != nil || fi.Mode().Perm() != 0o644 {
					t.Errorf("target mode = %v (%v), want 0644 kept", fi.Mode(), err)
				}
				cancel()
				ended()
			})
		}
	}
}

// TestWatchSymlinkThroughDirAlias links servers.json to a file beside it
// through a symlinked directory: one directory under two names, which must
// still be watched for both the link and its target.
func TestWatchSymlinkThroughDirAlias(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	ended := leaktest.Check(t)
	dir := t.TempDir()
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(dir, alias); err != nil {
		t.Fatal(err)
	}
	write := func(name, server string) {
		t.Helper()
		data := `{"mcpServers": {"` + server + `": {"command": "c"}}}`
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("real.json", "first")
	link := filepath.Join(dir, "servers.json")
	if err := os.Symlink(filepath.Join(alias, "real.json"), link); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	waitFor := watchResults(t, ctx, link)
	wait := func(name string) {
		t.Helper()
		waitFor(fmt.Sprintf("server %q", name), func(r result) bool {
			return r.err == nil && len(r.c.Servers) == 1 && r.c.Servers[0].Name == name
		})
	}

	write("real.json", "edited")
	wait("edited")
	write("other.json", "other")
	if err := os.Symlink(filepath.Join(alias, "other.json"), link+".new"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(link+".new", link); err != nil {
		t.Fatal(err)
	}
	wait("other")
	cancel()
	ended()
}
