//go:build darwin || freebsd

package endpoint

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerUID returns the UID of the process at the other end of c, as the
// kernel recorded it at connect or listen time (LOCAL_PEERCRED).
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, err
	}
	var cred *unix.Xucred
	cerr := raw.Control(func(fd uintptr) {
		cred, err = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	})
	if cerr != nil {
		return 0, cerr
	}
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}
