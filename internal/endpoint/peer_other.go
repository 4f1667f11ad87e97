//go:build !linux && !darwin && !freebsd && !windows

package endpoint

import (
	"errors"
	"fmt"
	"net"
	"runtime"
)

// peerUID fails: without a way to learn the peer's UID here, no peer is
// trusted.
func peerUID(net.Conn) (int, error) {
	return 0, fmt.Errorf("no peer credentials on %s: %w", runtime.GOOS, errors.ErrUnsupported)
}
