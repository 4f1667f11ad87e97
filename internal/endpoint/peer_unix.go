//go:build linux || darwin || freebsd

package endpoint

import (
	"fmt"
	"net"
	"syscall"
)

// peerUID returns the UID of the process at the other end of c, as the
// kernel recorded it when that process connected or listened.
func peerUID(c net.Conn) (int, error) {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return 0, fmt.Errorf("%T is not a socket", c)
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return 0, err
	}
	uid := -1
	cerr := raw.Control(func(fd uintptr) { uid, err = socketPeerUID(int(fd)) })
	if cerr != nil {
		return 0, cerr
	}
	return uid, err
}
