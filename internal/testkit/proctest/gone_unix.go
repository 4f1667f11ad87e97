//go:build unix

package proctest

import (
	"errors"
	"syscall"
)

// Gone reports whether no process pid exists any more: it has ended and
// been reaped.
func Gone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
