//go:build unix

package endpoint

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"
)

// TestPrivateDir checks which directory the socket goes to: the runtime
// directory only when it is private, else Elicit Desk's own, made private
// or refused.
func TestPrivateDir(t *testing.T) {
	tests := []struct {
		name     string
		runtime  func(t *testing.T, base string) string
		fallback func(t *testing.T, base string) string
		want     string // "runtime", "fallback" or "refused"
	}{
		{"private runtime directory", private, missing, "runtime"},
		{"no runtime directory", unset, missing, "fallback"},
		{"runtime directory missing", missing, missing, "fallback"},
		{"runtime directory others may enter", open, missing, "fallback"},
		{"runtime directory is a symbolic link", symlink, missing, "fallback"},
		{"runtime directory relative", func(*testing.T, string) string { return "run" }, missing, "fallback"},
		{"runtime directory too deep for a socket", func(t *testing.T, base string) string {
			return private(t, filepath.Join(base, strings.Repeat("d", maxPathLen)))
		}, missing, "fallback"},
		{"own directory there already", unset, private, "fallback"},
		{"own directory others may enter is made private", unset, open, "fallback"},
		{"own directory is a symbolic link", unset, symlink, "refused"},
		{"own directory is a file", unset, file, "refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			runtime := tt.runtime(t, filepath.Join(base, "runtime"))
			fallback := tt.fallback(t, filepath.Join(base, "state", "elicitdesk"))
			got, err := privateDir(runtime, fallback)
			switch tt.want {
			case "refused":
				if !errors.Is(err, ErrNotPrivate) || !strings.Contains(err.Error(), fallback) {
					t.Fatalf("privateDir = %q, %v; want it refused, naming %s", got, err, fallback)
				}
				return
			case "runtime":
				if got != runtime || err != nil {
					t.Fatalf("privateDir = %q, %v; want %s", got, err, runtime)
				}
			case "fallback":
				if got != fallback || err != nil {
					t.Fatalf("privateDir = %q, %v; want %s", got, err, fallback)
				}
			}
			if err := checkDir(got); err != nil {
				t.Error(err)
			}
		})
	}
}

// Directories TestPrivateDir sets up at path.
func unset(*testing.T, string) string       { return "" }
func missing(_ *testing.T, p string) string { return p }
func private(t *testing.T, p string) string { return mkdir(t, p, 0o700) }
func open(t *testing.T, p string) string    { return mkdir(t, p, 0o755) }

func symlink(t *testing.T, p string) string {
	target := private(t, p+".target")
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
	return p
}

func file(t *testing.T, p string) string {
	mkdir(t, filepath.Dir(p), 0o700)
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func mkdir(t *testing.T, p string, mode os.FileMode) string {
	t.Helper()
	if err := os.MkdirAll(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDefaultPath checks the whole choice with the environment: a private
// runtime directory, Elicit Desk's own under the state home, and a state
// home too deep for a socket, which is refused with advice.
func TestDefaultPath(t *testing.T) {
	t.Cleanup(xdg.Reload) // registered first, so it runs once the variables are back
	base := privateTempDir(t)
	long := filepath.Join(base, strings.Repeat("d", maxPathLen))
	tests := []struct {
		name, runtime, state string
		want                 string // a path, or what the error says
		ok                   bool
	}{
		{"private runtime directory", base, long, filepath.Join(base, socketName), true},
		{"no runtime directory", "", base, filepath.Join(base, "elicitdesk", socketName), true},
		{"state home too deep", "", long, "set XDG_RUNTIME_DIR", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("XDG_RUNTIME_DIR", tt.runtime)
			t.Setenv("XDG_STATE_HOME", tt.state)
			xdg.Reload()
			got, err := DefaultPath()
			switch {
			case tt.ok && (got != tt.want || err != nil):
				t.Errorf("DefaultPath() = %s, %v; want %s", got, err, tt.want)
			case !tt.ok && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("DefaultPath() = %s, %v; want an error saying %q", got, err, tt.want)
			}
		})
	}
}

// TestAppPath checks that a command looking for the app finds the socket
// where the app would make it, and creates nothing in looking.
func TestAppPath(t *testing.T) {
	t.Cleanup(xdg.Reload)
	for _, runtime := range []string{"private", "unset"} {
		t.Run(runtime, func(t *testing.T) {
			base := privateTempDir(t)
			state := filepath.Join(base, "state")
			t.Setenv("XDG_STATE_HOME", state)
			t.Setenv("XDG_RUNTIME_DIR", "")
			if runtime == "private" {
				t.Setenv("XDG_RUNTIME_DIR", base)
			}
			xdg.Reload()
			got := AppPath()
			if _, err := os.Stat(state); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("AppPath made %s: %v", state, err)
			}
			if want, err := DefaultPath(); got != want || err != nil {
				t.Errorf("AppPath() = %s; DefaultPath() = %s, %v", got, want, err)
			}
		})
	}
}
