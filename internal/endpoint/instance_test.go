package endpoint

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestListen: a second start brings the first forward and says it runs;
// Close removes the socket and lets a new app start.
func TestListen(t *testing.T) {
	path := socketPath(t)
	h := newHandler()
	first, err := Listen(t.Context(), path, h, quiet())
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		second, err := Listen(t.Context(), path, newHandler(), quiet())
		if second != nil || err != ErrRunning {
			t.Fatalf("second Listen = %v, %v; want ErrRunning", second, err)
		}
		await(t, h.fronts, "Front")
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket still there after Close: %v", err)
	}
	again, err := Listen(t.Context(), path, h, quiet())
	if err != nil {
		t.Fatalf("Listen after Close: %v", err)
	}
	again.Close()
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

// TestRace starts two apps at once, many times: exactly one must run and
// the other must have brought it forward.
func TestRace(t *testing.T) {
	for range 20 {
		path, h := socketPath(t), newHandler()
		var (
			wg      sync.WaitGroup
			servers [2]*Server
			errs    [2]error
		)
		start := make(chan struct{})
		for n := range 2 {
			wg.Go(func() {
				<-start
				servers[n], errs[n] = Listen(t.Context(), path, h, quiet())
			})
		}
		close(start)
		wg.Wait()
		won := 0
		for n := range 2 {
			switch {
			case errs[n] == nil:
				won++
				defer servers[n].Close()
			case errs[n] != ErrRunning:
				t.Fatalf("Listen: %v", errs[n])
			}
		}
		if won != 1 {
			t.Fatalf("%d apps won", won)
		}
		await(t, h.fronts, "Front")
	}
}

// TestSilentApp is a running app that holds the lock but does not answer:
// Listen gives up when ctx ends, still saying one runs.
func TestSilentApp(t *testing.T) {
	path := socketPath(t)
	lock, ok, err := tryLock(path + ".lock")
	if err != nil || !ok {
		t.Fatalf("tryLock = %v, %v", ok, err)
	}
	defer unlock(lock)
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	s, err := Listen(ctx, path, newHandler(), quiet())
	if s != nil || !errors.Is(err, ErrSilent) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Listen = %v, %v; want ErrSilent after the deadline", s, err)
	}
	if d := time.Since(start); d > startWait {
		t.Errorf("Listen took %v", d)
	}
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
