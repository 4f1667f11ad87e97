//go:build (unix && !aix) || windows

package instance

import "os"

// tryLock takes the lock file at path for this process, or reports that
// another holds it. The lock belongs to the open file, so two claims in one
// process exclude each other too, and the OS drops it when the process
// ends, however it ends.
func tryLock(path string) (*os.File, bool, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, err
	}
	ok, err := lockFile(f)
	if !ok {
		f.Close()
		return nil, false, err
	}
	return f, true, nil
}
