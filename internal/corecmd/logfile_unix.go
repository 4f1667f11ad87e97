//go:build unix

package corecmd

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// logToFile sends the core's standard error to a new file at path when
// it goes nowhere: a bridge or a script starts the app through the
// detacher, which leaves it /dev/null, and nobody would read the log, the
// windows' process's, which it inherits, or a panic's. It reports whether
// it did.
func logToFile(path string) bool {
	fi, err := os.Stderr.Stat()
	null, nerr := os.Stat(os.DevNull)
	if err != nil || nerr != nil || !os.SameFile(fi, null) {
		return false
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_APPEND, 0o600)
	if err != nil {
		return false
	}
	defer f.Close()
	return unix.Dup2(int(f.Fd()), 2) == nil
}
