package endpoint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestListen: a second start brings the first forward and says it runs;
// Close removes the endpoint and lets a new app start.
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
		t.Errorf("endpoint still there after Close: %v", err)
	}
	again, err := Listen(t.Context(), path, h, quiet())
	if err != nil {
		t.Fatalf("Listen after Close: %v", err)
	}
	again.Close()
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
	lock, ok, err := tryLock(lockPath(path))
	if err != nil || !ok {
		t.Fatalf("tryLock = %v, %v", ok, err)
	}
	defer lock.Close()
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

// TestUnreachableKeepsLock: an app that won the lock but could not make its
// endpoint (Wine has no Unix domain sockets) runs on, unreachable, and
// keeps the lock: a second start must neither run beside it nor take it
// for gone, until it closes.
func TestUnreachableKeepsLock(t *testing.T) {
	path := socketPath(t)
	lock, err := acquire(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	first, err := unreachable(lock, errors.New("listen unix: winapi error #10047"))
	if first == nil || !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "10047") {
		t.Fatalf("unreachable = %v, %v; want a Server holding the lock and ErrUnreachable with the cause", first, err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if second, err := Listen(ctx, path, newHandler(), quiet()); second != nil || !errors.Is(err, ErrSilent) {
		second.Close()
		t.Fatalf("Listen beside the unreachable app = %v, %v; want ErrSilent", second, err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Listen(t.Context(), path, newHandler(), quiet())
	if err != nil {
		t.Fatalf("Listen after the unreachable app closed: %v", err)
	}
	again.Close()
}

// TestRefusalGivesUpLock: what another user put in the way refuses the
// start, and the app that refuses does not keep the lock.
func TestRefusalGivesUpLock(t *testing.T) {
	path := socketPath(t)
	lock, err := acquire(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := unreachable(lock, fmt.Errorf("%s is in the way: %w", path, ErrNotPrivate)); s != nil || !errors.Is(err, ErrNotPrivate) || errors.Is(err, ErrUnreachable) {
		t.Fatalf("unreachable = %v, %v; want the refusal alone", s, err)
	}
	s, err := Listen(t.Context(), path, newHandler(), quiet())
	if err != nil {
		t.Fatalf("Listen after a refusal: %v", err)
	}
	s.Close()
}
