package endpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
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

// ErrNotPrivate is wrapped by the errors about something another user
// owns or could reach in the endpoint's way: the directory, the socket or
// pipe, the lock, or the process at the other end. Nothing is sent there
// and nothing is accepted from there.
var ErrNotPrivate = errors.New("not private to you; refusing to use it")

// ErrUnreachable says that this app holds the single-instance lock, so it
// is the one that runs, but could not open its endpoint: no script or
// bridge can reach it. Listen returns it with a Server that serves nothing
// and keeps the lock until Close, so that a second start does not run
// beside this app but is told that one runs and does not answer.
var ErrUnreachable = errors.New("elicitdesk runs, but cannot be reached")

// Listen claims the endpoint at path for this app and serves h there until
// Close. The lock (path + ".lock" beside a socket; a named mutex beside a
// Windows pipe) decides which app runs: the OS drops it however the process
// ends, and the endpoint is made only while holding it. When another app
// of this user holds it, Listen asks that app to come to the front and
// returns ErrRunning. A socket left by a crashed app is replaced only when
// it is this user's socket; anything another user put at path, at the lock
// or as the directory is refused with an error wrapping ErrNotPrivate.
// When the endpoint cannot be made for another reason, Listen returns a
// Server that keeps the lock, with an error wrapping ErrUnreachable. ctx
// bounds only the waiting for a running app.
func Listen(ctx context.Context, path string, h Handler, log *slog.Logger) (*Server, error) {
	return listen(ctx, path, h, log, defaultLimits())
}

// ErrNoUnixForward is why Windows serves no other machine's forwarded
// connections (ForwardedPath): its OpenSSH cannot forward Unix sockets,
// nor named pipes.
var ErrNoUnixForward = errors.New("the OpenSSH of Windows cannot forward Unix sockets or named pipes, so no other machine can reach Elicit Desk's endpoint through ssh -R here")

// ListenForwarded serves h at path for connections forwarded from another
// machine (a dev box over SSH, a container: elicitdesk remote). They may
// only ask, as a bridge does (bridge/elicit, bridge/session, bridge/traffic,
// bridge/complete): never call a tool, read the traffic, bring the app
// forward or write its history. It takes no lock: the app that holds its
// own endpoint's serves these too. A socket a previous run left at path is
// replaced when it is this user's.
func ListenForwarded(path string, h Handler, log *slog.Logger) (*Server, error) {
	ln, err := listenAt(path)
	if err != nil {
		return nil, err
	}
	return serve(ln, nil, h, log, defaultLimits(), true), nil
}

// listen is Listen with the server's limits.
func listen(ctx context.Context, path string, h Handler, log *slog.Logger, l limits) (*Server, error) {
	lock, err := acquire(ctx, path)
	if err != nil {
		return nil, err
	}
	ln, err := listenAt(path)
	if err != nil {
		return unreachable(lock, err)
	}
	return serve(ln, lock, h, log, l, false), nil
}

// acquire takes the single-instance lock of the endpoint at path, or says
// why not: another app runs (ErrRunning, ErrSilent), or what is in the way
// is not this user's.
func acquire(ctx context.Context, path string) (io.Closer, error) {
	if err := checkEndpoint(path); err != nil {
		return nil, err
	}
	giveUp := time.Now().Add(startWait)
	for {
		lock, ok, err := tryLock(lockPath(path))
		if err != nil {
			return nil, err
		}
		if ok {
			return lock, nil
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

// unreachable is Listen's answer when the app that holds lock could not
// make its endpoint (err). What another user put in the way refuses the
// start, and the lock is given up; any other failure leaves this app
// running, unreachable, and it keeps the lock: given up, a second app
// would start beside it, and every bridge would start one more.
func unreachable(lock io.Closer, err error) (*Server, error) {
	if errors.Is(err, ErrNotPrivate) {
		return nil, errors.Join(err, lock.Close())
	}
	return hold(lock), fmt.Errorf("%w: %w", ErrUnreachable, err)
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
