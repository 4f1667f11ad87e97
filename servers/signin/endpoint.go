package signin

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// checkEndpoint refuses a URL a sign-in must not send anything to: one
// that is not absolute, carries a fragment, or uses plain http off this
// machine (OAuth 2.1 §1.5: every endpoint but a loopback one over TLS).
func checkEndpoint(what, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return fmt.Errorf("the %s %q is not a URL", what, raw)
	}
	if u.Fragment != "" {
		return fmt.Errorf("the %s %q has a fragment", what, raw)
	}
	switch {
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && isLoopback(u.Hostname()):
		return nil
	case u.Scheme == "http":
		return fmt.Errorf("the %s %q is plain http: sign-in needs https off this machine", what, raw)
	}
	return fmt.Errorf("the %s %q is not http or https", what, raw)
}

// onOrigin refuses a URL that is not on the origin of owner, the URL of
// the server whose word it is.
func onOrigin(what, raw, owner string) error {
	u, err1 := url.Parse(raw)
	o, err2 := url.Parse(owner)
	if err1 != nil || err2 != nil || !sameOrigin(u, o) {
		return fmt.Errorf("the %s %q is on another origin than %q: sign-in sends nothing there", what, raw, owner)
	}
	return nil
}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// origin is the scheme and host of u, as a URL prefix.
func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// sameOrigin reports whether a and b have one origin (RFC 6454): scheme,
// host and port, the port a scheme's default when it is not given.
func sameOrigin(a, b *url.URL) bool {
	if a == nil || b == nil || !strings.EqualFold(a.Scheme, b.Scheme) || !strings.EqualFold(a.Hostname(), b.Hostname()) {
		return false
	}
	return port(a) == port(b)
}

// port is u's port, or its scheme's default.
func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}

// covers reports whether the protected resource metadata's resource names
// the server at serverURL (RFC 9728 §3.3, MCP canonical server URI): the
// same origin, and a path that is the server's or a parent of it.
func covers(resource, serverURL string) bool {
	r, err1 := url.Parse(resource)
	s, err2 := url.Parse(serverURL)
	if err1 != nil || err2 != nil || r.Fragment != "" {
		return false
	}
	if !strings.EqualFold(r.Scheme, s.Scheme) || !strings.EqualFold(r.Host, s.Host) {
		return false
	}
	rp := strings.TrimSuffix(r.EscapedPath(), "/")
	sp := strings.TrimSuffix(s.EscapedPath(), "/")
	return rp == sp || strings.HasPrefix(sp, rp+"/")
}
