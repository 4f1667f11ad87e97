//go:build !windows

package endpoint

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// socketPath is a fresh socket path for one test, in a private directory.
func socketPath(t *testing.T) string {
	return filepath.Join(privateTempDir(t), socketName)
}

// privateTempDir is a new temporary directory with mode 0700, as the
// endpoint's directory must be; t.TempDir's may be open to others.
func privateTempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestStale checks what Listen finds at the path when no app runs.
func TestStale(t *testing.T) {
	tests := []struct {
		name  string
		leave func(t *testing.T, path string)
		ok    bool
	}{
		{"nothing there", func(*testing.T, string) {}, true},
		{"socket of a crashed app", leaveSocket, true},
		{"lock file of a closed app", func(t *testing.T, path string) {
			s, err := Listen(t.Context(), path, newHandler(), quiet())
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
		}, true},
		{"a regular file in the way", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte("notes"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a directory in the way of the lock", func(t *testing.T, path string) {
			if err := os.Mkdir(path+".lock", 0o700); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := socketPath(t)
			tt.leave(t, path)
			s, err := Listen(t.Context(), path, newHandler(), quiet())
			if tt.ok != (err == nil) || errors.Is(err, ErrRunning) || errors.Is(err, ErrSilent) {
				t.Fatalf("Listen = %v, want ok %v", err, tt.ok)
			}
			if s == nil {
				if !strings.Contains(err.Error(), path) {
					t.Errorf("the error does not name the path: %v", err)
				}
				return
			}
			defer s.Close()
			if err := askFront(t.Context(), path); err != nil {
				t.Errorf("the claimed socket does not answer: %v", err)
			}
		})
	}
}

// leaveSocket leaves a socket file at path, as a killed app does.
func leaveSocket(t *testing.T, path string) {
	t.Helper()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
}

// TestPathLength checks the socket path limit with real sockets.
func TestPathLength(t *testing.T) {
	tests := []struct {
		length int
		ok     bool
	}{{60, true}, {103, true}, {104, false}, {300, false}}
	dir := privateTempDir(t)
	for _, tt := range tests {
		if tt.length <= len(dir)+len(".lock")+1 {
			continue // the temporary directory is longer here
		}
		path := filepath.Join(dir, strings.Repeat("s", tt.length-len(dir)-1))
		s, err := Listen(t.Context(), path, newHandler(), quiet())
		if tt.ok != (err == nil) {
			t.Errorf("Listen of a %d-byte path = %v, want ok %v", len(path), err, tt.ok)
		}
		if s != nil {
			s.Close()
		}
	}
}

// TestDialStaleSocket: a socket nobody listens on is "not running".
func TestDialStaleSocket(t *testing.T) {
	path := socketPath(t)
	leaveSocket(t, path)
	if _, err := Dial(t.Context(), path); !errors.Is(err, ErrNotRunning) {
		t.Errorf("a stale socket: %v", err)
	}
}
