//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// claim marks the temporary file at path as being written by this process
// until release: an exclusive lock, on a descriptor of its own, that the
// kernel drops when the process ends, however it ends.
func claim(path string) (release func()) {
	f, err := os.Open(path)
	if err != nil {
		return func() {}
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	return func() { f.Close() }
}

// abandoned reports whether the temporary file at path is no live
// writer's: its lock can be taken.
func abandoned(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
