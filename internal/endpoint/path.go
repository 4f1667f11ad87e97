//go:build !windows

package endpoint

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/adrg/xdg"
)

// socketName is the endpoint's file name in the private directory; the
// lock file is beside it, with ".lock" added.
const socketName = "elicitdesk.sock"

// maxPathLen is the longest socket path every supported OS takes: macOS
// holds 104 bytes for it, the closing NUL included (Linux and Windows 108).
const maxPathLen = 103

// DefaultPath returns where the endpoint's socket lives:
// elicitdesk.sock in the user's runtime directory when it is private to the
// user ($XDG_RUNTIME_DIR, or where it would be when unset, /run/user/UID on
// Linux, so a process started without the variable, by cron or a host with
// a bare environment, finds the same app), else elicitdesk.sock in a directory of Elicit Desk's own under the
// user's state home (~/.local/state/elicitdesk; ~/Library/Application
// Support/elicitdesk on macOS), created when missing. (Windows has a named
// pipe instead: see path_windows.go.) Never a shared temporary directory: another user
// could claim a name there first. When even that path is too long for a
// socket, the error says so and how to give a shorter runtime directory.
func DefaultPath() (string, error) {
	dir, err := privateDir(xdg.RuntimeDir, fallbackDir())
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, socketName)
	if err := checkPath(path); err != nil {
		return "", fmt.Errorf("%w; set XDG_RUNTIME_DIR to a shorter directory of your own with mode 0700", err)
	}
	return path, nil
}

// AppPath returns where a running app's socket is, as DefaultPath
// chooses it, but creates nothing: a command that only asks the app, such
// as `elicitdesk servers`, leaves no directory behind when none runs. Dial
// on a path whose directory is missing fails with ErrNotRunning.
func AppPath() string {
	if usableRuntime(xdg.RuntimeDir) {
		return filepath.Join(xdg.RuntimeDir, socketName)
	}
	return filepath.Join(fallbackDir(), socketName)
}

// fallbackDir is Elicit Desk's own directory for the socket when the
// runtime directory will not do.
func fallbackDir() string { return filepath.Join(xdg.StateHome, "elicitdesk") }

// usableRuntime reports whether runtime is a private directory with room
// for the socket's name.
func usableRuntime(runtime string) bool {
	return filepath.IsAbs(runtime) && checkDir(runtime) == nil && checkPath(filepath.Join(runtime, socketName)) == nil
}

// privateDir returns runtime when it is a private directory with room for
// the socket's name, and otherwise fallback, which it creates when missing.
func privateDir(runtime, fallback string) (string, error) {
	if usableRuntime(runtime) {
		return runtime, nil
	}
	if err := os.MkdirAll(filepath.Dir(fallback), 0o700); err != nil {
		return "", err
	}
	if err := os.Mkdir(fallback, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", err
	}
	// A directory of our own that someone made looser is ours to tighten.
	if fi, err := os.Lstat(fallback); err == nil && fi.IsDir() && checkOwner(fallback, fi) == nil && fi.Mode().Perm() != 0o700 {
		os.Chmod(fallback, 0o700)
	}
	// What is there now may not be what Mkdir made: look before using it.
	if err := checkDir(fallback); err != nil {
		return "", err
	}
	return fallback, nil
}

// checkPath says why path cannot hold a socket.
func checkPath(path string) error {
	switch {
	case path == "":
		return errors.New("no socket path")
	case len(path) > maxPathLen:
		return fmt.Errorf("socket path %s is %d bytes long; a Unix socket path may have at most %d", path, len(path), maxPathLen)
	}
	return nil
}

// forwardedDir is the folder, beside the endpoint, of the sockets the app
// serves for other machines (ForwardedPath).
const forwardedDir = "elicitdesk-remote"

// ForwardedPath returns where the app serves the connections forwarded
// from machine (elicitdesk remote), creating its private folder beside the
// endpoint when missing: one socket a machine, so that the app knows
// which machine asks, limits each and can block one.
func ForwardedPath(machine string) (string, error) {
	if !MachineName(machine) {
		return "", fmt.Errorf("%q is not a machine's name: 1 to %d letters, digits, '.', '_' or '-', not starting with '.'", machine, maxMachine)
	}
	home, err := DefaultPath()
	if err != nil {
		return "", err
	}
	dir, err := privateDir("", filepath.Join(filepath.Dir(home), forwardedDir))
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, machine+".sock")
	return path, checkPath(path)
}
