package instance

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

// socketPath is a fresh socket path for one test.
func socketPath(t *testing.T) string {
	return filepath.Join(t.TempDir(), "elicitdesk.sock")
}

// showCounter returns an onShow and a channel that receives on each call.
func showCounter() (func(), chan struct{}) {
	shows := make(chan struct{}, 16)
	return func() { shows <- struct{}{} }, shows
}

// waitShow fails t unless onShow is called soon.
func waitShow(t *testing.T, shows <-chan struct{}) {
	t.Helper()
	select {
	case <-shows:
	case <-time.After(5 * time.Second):
		t.Fatal("onShow was not called")
	}
}

func TestListen(t *testing.T) {
	path := socketPath(t)
	onShow, shows := showCounter()
	first, err := Listen(t.Context(), path, onShow)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		second, err := Listen(t.Context(), path, nil)
		if second != nil || err != ErrRunning {
			t.Fatalf("second Listen = %v, %v; want ErrRunning", second, err)
		}
		waitShow(t, shows)
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
	again, err := Listen(t.Context(), path, nil)
	if err != nil {
		t.Fatalf("Listen after Close: %v", err)
	}
	again.Close()
}

// TestStale checks what Listen finds at the path when no instance runs.
func TestStale(t *testing.T) {
	var cases []struct {
		Name, Leave string
		OK          bool
	}
	readJSON(t, "stale.json", &cases)
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			path := socketPath(t)
			leave(t, path, tt.Leave)
			i, err := Listen(t.Context(), path, nil)
			if tt.OK != (err == nil) || errors.Is(err, ErrRunning) {
				t.Fatalf("Listen = %v, want ok %v", err, tt.OK)
			}
			if i == nil {
				if _, err := os.Stat(path); err != nil {
					t.Errorf("what was in the way is gone: %v", err)
				}
				return
			}
			if err := askShow(t.Context(), path); err != nil {
				t.Errorf("the claimed socket does not answer: %v", err)
			}
			i.Close()
		})
	}
}

// leave puts at path what an earlier run may have left there.
func leave(t *testing.T, path, what string) {
	t.Helper()
	switch what {
	case "socket":
		ln, err := net.Listen("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		ln.(*net.UnixListener).SetUnlinkOnClose(false) // as if the process died
		ln.Close()
	case "lock":
		i, err := Listen(t.Context(), path, nil)
		if err != nil {
			t.Fatal(err)
		}
		i.Close()
		if _, err := os.Stat(path + ".lock"); err != nil {
			t.Fatal(err)
		}
	case "file":
		if err := os.WriteFile(path, []byte("notes"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRace starts two instances at once, many times: exactly one must run
// and the other must have shown it.
func TestRace(t *testing.T) {
	for range 20 {
		path := socketPath(t)
		onShow, shows := showCounter()
		var (
			wg        sync.WaitGroup
			instances [2]*Instance
			errs      [2]error
		)
		start := make(chan struct{})
		for n := range 2 {
			wg.Go(func() {
				<-start
				instances[n], errs[n] = Listen(t.Context(), path, onShow)
			})
		}
		close(start)
		wg.Wait()
		won := 0
		for n := range 2 {
			switch {
			case errs[n] == nil:
				won++
				defer instances[n].Close()
			case errs[n] != ErrRunning:
				t.Fatalf("Listen: %v", errs[n])
			}
		}
		if won != 1 {
			t.Fatalf("%d instances won", won)
		}
		waitShow(t, shows)
	}
}

// TestSilentInstance is a running instance that holds the lock but does not
// answer: Listen gives up when ctx ends, still saying one runs.
func TestSilentInstance(t *testing.T) {
	path := socketPath(t)
	lock, ok, err := tryLock(path + ".lock")
	if err != nil || !ok {
		t.Fatalf("tryLock = %v, %v", ok, err)
	}
	defer unlock(lock)
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	i, err := Listen(ctx, path, nil)
	if i != nil || !errors.Is(err, ErrRunning) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Listen = %v, %v; want ErrRunning after the deadline", i, err)
	}
	if d := time.Since(start); d > startWait {
		t.Errorf("Listen took %v", d)
	}
}

// TestPathLength checks the socket path limit with real sockets.
func TestPathLength(t *testing.T) {
	var cases []struct {
		Length int
		OK     bool
	}
	readJSON(t, "paths.json", &cases)
	dir := t.TempDir()
	for _, tt := range cases {
		if tt.Length <= len(dir)+1 {
			continue // the temporary directory is longer here
		}
		path := filepath.Join(dir, strings.Repeat("s", tt.Length-len(dir)-1))
		i, err := Listen(t.Context(), path, nil)
		if tt.OK != (err == nil) {
			t.Errorf("Listen of a %d-byte path = %v, want ok %v", len(path), err, tt.OK)
		}
		if i != nil {
			i.Close()
		}
	}
}
