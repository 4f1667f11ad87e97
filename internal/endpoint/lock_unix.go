//go:build unix && !aix

package endpoint

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openLock opens or creates the lock file at path, never through a
// symbolic link.
func openLock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
}

// lockFile takes an flock lock on f without waiting; false with no error
// means another open file holds it.
func lockFile(f *os.File) (bool, error) {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
