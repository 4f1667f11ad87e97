//go:build !windows

package endpoint

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
)

// The endpoint outside Windows is a Unix domain socket at a path in a
// directory private to the user, with the lock file beside it.

// checkEndpoint refuses a socket path that is too long, or whose directory
// is not private to this user.
func checkEndpoint(path string) error {
	if err := checkPath(path); err != nil {
		return err
	}
	return checkDir(filepath.Dir(path))
}

// lockPath is the lock file of the socket at path.
func lockPath(path string) string { return path + ".lock" }

// listenAt makes the socket at path for the app that holds its lock,
// replacing one a crashed app of this user left.
func listenAt(path string) (net.Listener, error) {
	if err := removeStale(path); err != nil {
		return nil, err
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	// The directory is private already; this says so twice.
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
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

// dialAt connects to the socket at path once the directory, the socket
// and the process listening on it are found to be this user's.
func dialAt(ctx context.Context, path string) (net.Conn, error) {
	err := checkDir(filepath.Dir(path))
	if err == nil {
		err = checkSocket(path)
	}
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w (no socket at %s)", ErrNotRunning, path)
	}
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNotRunning, err)
	}
	if err := checkPeer(c, path); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}
