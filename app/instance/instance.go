// Package instance keeps one Elicit Desk running per user: a second
// elicitdesk started while one runs brings the running one to the front
// instead of starting twice, so there is only ever one tray icon and one
// queue of requests.
//
// The first instance holds an OS lock on a file beside the socket for as
// long as it runs; the OS drops it however the process ends, so the lock,
// not the socket file, says who runs. The lock file, the socket path with
// ".lock" added, stays when the instance ends: removing it could let two
// instances lock two different files. Later instances send "show\n" over
// the Unix domain socket and get "ok\n" back.
package instance

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"
)

// ErrRunning is returned by Listen when another instance runs already.
var ErrRunning = errors.New("elicitdesk is already running")

// Timing of the talk between instances.
const (
	ioTimeout = 2 * time.Second        // one request and its answer
	startWait = 3 * time.Second        // for a running instance that has not opened its socket yet
	retry     = 50 * time.Millisecond  // between tries while waiting
	backoff   = 100 * time.Millisecond // after an accept that failed for a reason other than Close
)

// Instance is the running instance's claim: the lock and the socket later
// instances reach it by.
type Instance struct {
	ln        net.Listener
	lock      *os.File
	done      chan struct{} // closed when the accept loop has ended
	closeOnce sync.Once
	closeErr  error
}

// Listen claims the single-instance socket at path, a Unix domain socket
// (Linux, macOS, the BSDs, Windows 10 and later). When another instance
// runs, Listen asks it to come to the front and returns ErrRunning; an error
// that wraps ErrRunning says it did not answer in time. A socket file left
// by an instance that crashed is removed and claimed. onShow, if not nil,
// is called on the listener's goroutine each time a later instance asks.
// ctx bounds the waiting for the running instance only.
func Listen(ctx context.Context, path string, onShow func()) (*Instance, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	giveUp := time.Now().Add(startWait)
	for {
		lock, ok, err := tryLock(path + ".lock")
		if err != nil {
			return nil, fmt.Errorf("instance: %w", err)
		}
		if ok {
			return claim(path, lock, onShow)
		}
		err = askShow(ctx, path)
		if err == nil {
			return nil, ErrRunning
		}
		if ctx.Err() != nil || time.Now().After(giveUp) {
			return nil, fmt.Errorf("%w, but it does not answer: %w", ErrRunning, err)
		}
		t := time.NewTimer(retry) // it may be starting: locked, but not yet listening
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C:
		}
	}
}

// claim opens the socket at path for the instance that holds lock,
// removing one a crashed instance left, and starts answering on it.
func claim(path string, lock *os.File, onShow func()) (*Instance, error) {
	var ln net.Listener
	err := removeStale(path)
	if err == nil {
		ln, err = net.Listen("unix", path)
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("instance: %w", err), unlock(lock))
	}
	i := &Instance{ln: ln, lock: lock, done: make(chan struct{})}
	go i.serve(onShow)
	return i, nil
}

// removeStale removes the socket file at path, which no running instance
// owns once the lock is ours. Anything but a socket there is left alone.
func removeStale(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode()&os.ModeSocket == 0:
		return fmt.Errorf("%s is in the way and is not a socket", path)
	}
	return os.Remove(path)
}

// serve answers later instances one at a time until the listener closes.
func (i *Instance) serve(onShow func()) {
	defer close(i.done)
	for {
		c, err := i.ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			slog.Warn("instance: accept", "err", err)
			time.Sleep(backoff)
			continue
		}
		if answer(c) && onShow != nil {
			onShow()
		}
	}
}

// Close gives the claim up: the socket goes, then the lock, so a new
// instance can start. It waits for a running onShow to return.
func (i *Instance) Close() error {
	i.closeOnce.Do(func() {
		err := i.ln.Close()
		<-i.done
		i.closeErr = errors.Join(err, unlock(i.lock))
	})
	return i.closeErr
}
