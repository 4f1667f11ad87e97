//go:build unix && !aix

package instance

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes an flock lock on f without waiting; false with no error
// means another open file holds it.
func lockFile(f *os.File) (bool, error) {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// unlock gives the lock up.
func unlock(f *os.File) error {
	return f.Close()
}
