//go:build unix && !aix

package endpoint

import (
	"fmt"
	"io"
)

// tryLock takes the lock file at path for this process, or reports that
// another holds it. The lock belongs to the open file, so two claims in one
// process exclude each other too, and the OS drops it when the process
// ends, however it ends. A lock file another user owns is refused: whoever
// holds it could make us believe an app runs.
func tryLock(path string) (io.Closer, bool, error) {
	f, err := openLock(path)
	if err != nil {
		return nil, false, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = checkOwner(path, fi)
	}
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is in the way and is not a lock file: %w", path, ErrNotPrivate)
	}
	if err != nil {
		f.Close()
		return nil, false, err
	}
	ok, err := lockFile(f)
	if !ok {
		f.Close()
		return nil, false, err
	}
	return f, true, nil
}
