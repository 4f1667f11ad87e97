package link

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// isLoopbackHost reports whether host, without a port, names this machine
// the way a local MCP server may be reached: localhost, 127.0.0.1 or ::1.
func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	switch strings.ToLower(host) {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return false
}

// checkListenAddr refuses an address that is not on the loopback
// interface: hosts send the Listener's secret over plain HTTP, which only
// this machine may carry.
func checkListenAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q: %w", addr, err)
	}
	if !isLoopbackHost(host) {
		return fmt.Errorf("listen address %q is not loopback: the bridge serves only this machine, on 127.0.0.1, [::1] or localhost", addr)
	}
	return nil
}

// loopbackHostHeader reports whether an HTTP Host header names this
// machine. A web page that rebinds its own name to 127.0.0.1 still sends
// that name, which is how DNS rebinding is told apart.
func loopbackHostHeader(h string) bool {
	host, _, err := net.SplitHostPort(h)
	if err != nil {
		host = h
	}
	return isLoopbackHost(host)
}

// loopbackOrigin reports whether an Origin header is a page served from
// this machine: http or https on localhost, 127.0.0.1 or [::1], any port.
func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Path != "" && u.Path != "/" {
		return false
	}
	return isLoopbackHost(u.Hostname())
}
