//go:build !linux && !windows

package endpoint

import (
	"context"
	"net"
)

// awaitHangup waits for ctx and reports no hang-up. Gap: on Unix systems
// other than Linux, poll does not tell a peer's half-close from its full close, so a peer
// that stops sending is taken to wait for its answers; one that went away
// is noticed when the answer cannot be written. Client sends
// notifications/cancelled before it hangs up, so only a killed client's
// calls run on.
func awaitHangup(ctx context.Context, _ net.Conn) bool {
	<-ctx.Done()
	return false
}
