package endpoint

import (
	"context"
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// hangupPoll is how long one poll for a hang-up waits, so that the watch
// ends soon after ctx does.
const hangupPoll = 100 // milliseconds

// awaitHangup waits until the peer of c, which has stopped sending, closes
// its end entirely (true), or ctx ends (false). Linux tells the two apart:
// a half-close sets POLLRDHUP only, a full close POLLHUP too. Polling with
// no events asked waits for POLLHUP and POLLERR alone.
func awaitHangup(ctx context.Context, c net.Conn) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return true
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return true
	}
	for ctx.Err() == nil {
		var hup bool
		err := raw.Control(func(fd uintptr) {
			fds := []unix.PollFd{{Fd: int32(fd)}}
			n, err := unix.Poll(fds, hangupPoll)
			hup = err == nil && n > 0 && fds[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0
		})
		if err != nil || hup {
			return ctx.Err() == nil
		}
	}
	return false
}
