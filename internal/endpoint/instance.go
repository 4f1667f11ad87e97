package endpoint

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Listen's errors when another Elicit Desk of this user runs already.
var (
	// ErrRunning: it was asked to come to the front, and did.
	ErrRunning = errors.New("elicitdesk is already running")
	// ErrSilent: it holds the lock but did not answer in time.
	ErrSilent = errors.New("elicitdesk is already running, but it does not answer")
)

// Timing of a start beside a running app.
const (
	startWait = 3 * time.Second       // for a running app that has not opened its socket yet
	retry     = 50 * time.Millisecond // between tries while waiting
	askWait   = 2 * time.Second       // for the running app to come to the front
)

// Listen claims the endpoint at path for this app and serves h there until
// Close. The lock file beside the socket (path + ".lock") decides which app
// runs: the OS drops it however the process ends, and the socket is made
// only while holding it. When another app of this user holds it, Listen
// asks that app to come to the front and returns ErrRunning. A socket left
// by a crashed app is replaced only when it is this user's socket; anything
// another user put at path, at the lock file or as the directory is
// refused with an error wrapping ErrNotPrivate. ctx bounds only the
// waiting for a running app.
func Listen(ctx context.Context, path string, h Handler, log *slog.Logger) (*Server, error) {
	return listen(ctx, path, h, log, defaultLimits())
}

// listen is Listen with the server's limits.
func listen(ctx context.Context, path string, h Handler, log *slog.Logger, l limits) (*Server, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	if err := checkDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	giveUp := time.Now().Add(startWait)
	for {
		lock, ok, err := tryLock(path + ".lock")
		if err != nil {
			return nil, err
		}
		if ok {
			return claim(path, lock, h, log, l)
		}
		err = askFront(ctx, path)
		switch {
		case err == nil:
			return nil, ErrRunning
		case errors.Is(err, ErrNotPrivate):
			return nil, err
		case ctx.Err() != nil:
			return nil, fmt.Errorf("%w: %w", ErrSilent, context.Cause(ctx))
		case time.Now().After(giveUp):
			return nil, fmt.Errorf("%w: %w", ErrSilent, err)
		}
		t := time.NewTimer(retry) // it may be starting: locked, but not yet listening
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C:
		}
	}
}

// claim makes the socket at path for the app that holds lock, replacing
// one a crashed app of this user left, and starts serving on it.
func claim(path string, lock *os.File, h Handler, log *slog.Logger, l limits) (*Server, error) {
	var ln *net.UnixListener
	err := removeStale(path)
	if err == nil {
		ln, err = net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	}
	if err == nil {
		err = os.Chmod(path, 0o600) // the directory is private already; this says so twice
	}
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		return nil, errors.Join(err, unlock(lock))
	}
	return serve(ln, lock, h, log, l), nil
}

// removeStale removes the socket at path, which no running app serves once
// the lock is ours, if it is this user's socket; anything else is refused.
func removeStale(path string) error {
	err := checkSocket(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return os.Remove(path)
}

// askFront asks the app serving at path to come to the front.
func askFront(ctx context.Context, path string) error {
	ctx, cancel := context.WithTimeout(ctx, askWait)
	defer cancel()
	c, err := Dial(ctx, path)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Front(ctx)
}
