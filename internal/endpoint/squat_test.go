//go:build unix

package endpoint

import (
	"bytes"
	"errors"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestSquatters puts what another user owns in the endpoint's way: the app
// must refuse to start (never saying one runs), the client must refuse to
// connect, each naming the path and its owner, and a squatting listener
// must receive nothing.
func TestSquatters(t *testing.T) {
	requireRoot(t)
	tests := []struct {
		name  string
		squat func(t *testing.T, path string) *helper // nil when no process
		where func(path string) string                // what the errors name
		// dialOK: the client has nothing to refuse (it takes no lock).
		dialOK bool
		// listenOK: Listen may claim the endpoint (the thing in the way is
		// ours after all and stale).
		listenOK bool
	}{
		{"directory owned by another user", func(t *testing.T, path string) *helper {
			chown(t, filepath.Dir(path), nobody)
			return nil
		}, filepath.Dir, false, false},
		{"socket file of another user", func(t *testing.T, path string) *helper {
			leaveSocket(t, path)
			chown(t, path, nobody)
			return nil
		}, same, false, false},
		{"lock file of another user", func(t *testing.T, path string) *helper {
			if err := os.WriteFile(path+".lock", nil, 0o600); err != nil {
				t.Fatal(err)
			}
			chown(t, path+".lock", nobody)
			return nil
		}, func(p string) string { return p + ".lock" }, true, false},
		{"another user's listener at our socket path", func(t *testing.T, path string) *helper {
			return squatListener(t, path)
		}, same, false, false},
		{"another user's listener behind our socket file", func(t *testing.T, path string) *helper {
			h := squatListener(t, path)
			chown(t, path, os.Getuid())
			return h
		}, same, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := socketPath(t)
			h := tt.squat(t, path)
			if _, err := Dial(t.Context(), path); !tt.dialOK {
				wantRefusal(t, "Dial", err, tt.where(path))
			}
			if h != nil {
				if got := h.finish(t); !strings.HasSuffix(got, " 0 bytes") {
					t.Errorf("the squatter received something: %s", got)
				}
			}
			s, err := Listen(t.Context(), path, newHandler(), quiet())
			if tt.listenOK {
				if err != nil {
					t.Fatalf("Listen: %v", err)
				}
				s.Close()
				return
			}
			wantRefusal(t, "Listen", err, tt.where(path))
		})
	}
}

// wantRefusal fails t unless err refuses what another user owns at path,
// naming the path and the owner, and does not claim an app runs.
func wantRefusal(t *testing.T, what string, err error, path string) {
	t.Helper()
	switch {
	case !errors.Is(err, ErrNotPrivate) || errors.Is(err, ErrRunning):
		t.Errorf("%s = %v, want it refused as not private", what, err)
	case !strings.Contains(err.Error(), path+" ") || !strings.Contains(err.Error(), "uid 65534"):
		t.Errorf("%s's error does not name %s and its owner: %v", what, path, err)
	}
}

// TestPeerOfAnotherUser has another user's process connect to our server,
// which must refuse it without an answer and log why.
func TestPeerOfAnotherUser(t *testing.T) {
	requireRoot(t)
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	// A directory the other user may reach, unlike the ones Listen takes.
	path := filepath.Join(sharedDir(t, os.Getuid()), socketName)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o777)
	lock, _, err := tryLock(filepath.Join(t.TempDir(), "lock"))
	if err != nil {
		t.Fatal(err)
	}
	s := serve(ln, lock, newHandler(), log, defaultLimits(), false)
	defer s.Close()
	h := startHelper(t, "dial", path, nobody)
	if got := h.line(t); !strings.HasPrefix(got, `got "" `) {
		t.Errorf("the other user's peer got %s", got)
	}
	if !strings.Contains(logs.String(), "refused a connection") || !strings.Contains(logs.String(), "uid 65534") {
		t.Errorf("the log does not say who was refused:\n%s", logs.String())
	}
}

// squatListener has another user listen at path, by a hard link to the
// socket it made in a directory of its own.
func squatListener(t *testing.T, path string) *helper {
	t.Helper()
	own := filepath.Join(sharedDir(t, nobody), "squat.sock")
	h := startHelper(t, "squat", own, nobody)
	if err := os.Link(own, path); err != nil {
		t.Fatal(err)
	}
	return h
}

func requireRoot(t *testing.T) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skipf("needs root to act as another user (uid %d); this test runs as uid %d", nobody, os.Getuid())
	}
}

func chown(t *testing.T, path string, uid int) {
	t.Helper()
	if err := os.Lchown(path, uid, uid); err != nil {
		t.Fatal(err)
	}
}

func same(p string) string { return p }

// syncBuffer is a bytes.Buffer several goroutines may write.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
