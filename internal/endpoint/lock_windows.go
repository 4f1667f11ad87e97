package endpoint

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// openLock opens or creates the lock file at path. Gap: Windows has no
// O_NOFOLLOW, and checkDir refuses a symbolic link but not a junction (Go
// reports one as irregular, not as a link); the directory's default ACL,
// which only the user may write, is what keeps others from placing one.
func openLock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
}

// lockFile locks the first byte of f without waiting; false with no error
// means another handle holds it.
func lockFile(f *os.File) (bool, error) {
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, new(windows.Overlapped))
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return false, nil
	}
	return err == nil, err
}

// unlock gives the lock up.
func unlock(f *os.File) error {
	err := windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, new(windows.Overlapped))
	return errors.Join(err, f.Close())
}
