//go:build !(unix && !aix) && !windows

package endpoint

import (
	"errors"
	"fmt"
	"io"
	"runtime"
)

// tryLock reports that there is no file locking to keep one instance here.
func tryLock(string) (io.Closer, bool, error) {
	return nil, false, fmt.Errorf("no single-instance lock on %s: %w", runtime.GOOS, errors.ErrUnsupported)
}
