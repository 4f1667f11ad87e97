//go:build unix

package endpoint

import (
	"fmt"
	"os"
	"syscall"
)

// checkOwner refuses fi, the file at path, unless this user owns it.
func checkOwner(path string, fi os.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("cannot tell who owns %s: %w", path, ErrNotPrivate)
	}
	return checkUID(path, int(st.Uid))
}

// checkDirMode refuses dir when its group or others may use it.
func checkDirMode(dir string, fi os.FileInfo) error {
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s has mode %#o, so others may enter it; a private directory has 0700: %w", dir, perm, ErrNotPrivate)
	}
	return nil
}
