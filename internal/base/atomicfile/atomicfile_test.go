package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	for _, content := range []string{"first", "second, longer"} {
		if err := Write(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read %q %v, want %q", got, err, content)
		}
	}
	if runtime.GOOS != "windows" {
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %v", fi.Mode())
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestCreateNew checks a new file is made whole with its mode, and an
// existing one is left as it is, with an error that says it exists.
func TestCreateNew(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "secret")
	if err := CreateNew(path, []byte("first"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := CreateNew(path, []byte("second"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("over an existing file: %v, want fs.ErrExist", err)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != "first" {
		t.Errorf("read %q %v, want the first", got, err)
	}
	if fi, _ := os.Stat(path); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestWriteThroughSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	target := filepath.Join(t.TempDir(), "real.json")
	link := filepath.Join(t.TempDir(), "link.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(target, 0o644); err != nil { // past the umask
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Fatalf("target holds %q", got)
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("target mode %v (%v), want the 0644 it had", fi.Mode(), err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(link), ".*.tmp")); len(left) > 0 {
		t.Errorf("temporary files beside the link: %v", left)
	}
}

func TestWriteIntoMissingDirectoryFails(t *testing.T) {
	if err := Write(filepath.Join(t.TempDir(), "no", "f"), []byte("x"), 0o600); err == nil {
		t.Fatal("wrote into a missing directory")
	}
}

// TestWriteThroughLinks: a link whose target is not made yet (a dotfiles
// repository's file to come) and a relative link reached through a linked
// directory both stay links, and the file they lead to gets the data.
func TestWriteThroughLinks(t *testing.T) {
	tests := []struct {
		name string
		make func(t *testing.T, base string) (path, target string)
	}{
		{"dangling link", func(t *testing.T, base string) (string, string) {
			target := filepath.Join(base, "dotfiles", "servers.json")
			mkdir(t, filepath.Dir(target))
			link := filepath.Join(base, "config", "servers.json")
			mkdir(t, filepath.Dir(link))
			symlink(t, target, link)
			return link, target
		}},
		{"relative link in a linked directory", func(t *testing.T, base string) (string, string) {
			real := filepath.Join(base, "real", "elicitdesk")
			mkdir(t, real)
			target := filepath.Join(base, "real", "shared.json")
			if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			symlink(t, "../shared.json", filepath.Join(real, "servers.json"))
			symlink(t, real, filepath.Join(base, "config"))
			return filepath.Join(base, "config", "servers.json"), target
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, target := tt.make(t, t.TempDir())
			if err := Write(path, []byte("new"), 0o600); err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("%s is no longer a link (%v)", path, err)
			}
			if got, err := os.ReadFile(target); err != nil || string(got) != "new" {
				t.Errorf("target holds %q (%v)", got, err)
			}
		})
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
}
