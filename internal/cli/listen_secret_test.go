package cli

import (
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// TestListenSecret checks the bridge keeps one secret per address, from
// one start to the next, readable by the person alone, and makes a new
// one where the kept one may be known or is not one.
func TestListenSecret(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "listen")
	quiet := slog.New(slog.DiscardHandler)
	first, path, err := listenSecret(dir, "127.0.0.1:8808", quiet)
	if err != nil {
		t.Fatal(err)
	}
	if err := link.CheckSecret(first); err != nil {
		t.Errorf("made %q: %v", first, err)
	}
	if runtime.GOOS != "windows" {
		for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
			if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
				t.Errorf("%s: %v %v, want mode %v", p, fi.Mode(), err, want)
			}
		}
	}
	if again, p, err := listenSecret(dir, "127.0.0.1:8808", quiet); again != first || p != path || err != nil {
		t.Errorf("the next start got %q in %s (%v), want the same secret", again, p, err)
	}
	if other, p, _ := listenSecret(dir, "[::1]:8808", quiet); other == first || p == path {
		t.Errorf("another address got the same secret or file: %s", p)
	}
	if a, p, err := listenSecret(dir, "127.0.0.1:0", quiet); p != "" || err != nil || link.CheckSecret(a) != nil {
		t.Errorf("port 0: %q kept in %q (%v), want a secret kept nowhere", a, p, err)
	}
	if a, _, _ := listenSecret(dir, "127.0.0.1:0", quiet); a == first {
		t.Error("port 0 got the kept secret")
	}

	for _, tt := range []struct {
		name    string
		content string
		mode    os.FileMode
	}{
		{"readable by others", first + "\n", 0o644},
		{"not a secret", "hunter2\n", 0o600},
		{"empty", "", 0o600},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.mode&0o077 != 0 && runtime.GOOS == "windows" {
				t.Skip("Windows files have no mode bits for others")
			}
			if err := os.WriteFile(path, []byte(tt.content), tt.mode); err != nil {
				t.Fatal(err)
			}
			os.Chmod(path, tt.mode) // past the umask
			got, p, err := listenSecret(dir, "127.0.0.1:8808", quiet)
			if err != nil || p != path || got == first || link.CheckSecret(got) != nil {
				t.Errorf("got %q in %s (%v), want a new secret in %s", got, p, err, path)
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 && runtime.GOOS != "windows" {
				t.Errorf("the new file: %v %v", fi.Mode(), err)
			}
		})
	}
}
