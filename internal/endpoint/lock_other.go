//go:build !((unix && !aix) || windows)

package endpoint

import (
	"errors"
	"fmt"
	"os"
	"runtime"
)

// tryLock reports that there is no file locking to keep one instance here.
func tryLock(string) (*os.File, bool, error) {
	return nil, false, fmt.Errorf("no single-instance lock on %s: %w", runtime.GOOS, errors.ErrUnsupported)
}

// unlock is never reached: tryLock never locks here.
func unlock(*os.File) error { return errors.ErrUnsupported }
