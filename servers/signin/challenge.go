package signin

import (
	"net/http"
	"strings"
)

// Challenge is what a server's WWW-Authenticate header asks for (RFC 6750
// §3, RFC 9728 §5.1): where its protected resource metadata is, the scopes
// it wants, and why it refused.
type Challenge struct {
	ResourceMetadata string // resource_metadata: the metadata's URL, or ""
	Scope            string // scope: space-separated, or ""
	Error            string // error: "invalid_token", "insufficient_scope"…
}

// InsufficientScope reports whether the server wants more scopes.
func (c Challenge) InsufficientScope() bool { return c.Error == "insufficient_scope" }

// ParseChallenge reads the Bearer challenge of a response's
// WWW-Authenticate headers; a response without one gives the zero
// Challenge, with which discovery starts from the server's URL.
func ParseChallenge(h http.Header) Challenge {
	for _, v := range h.Values("WWW-Authenticate") {
		if c, ok := parseBearer(v); ok {
			return c
		}
	}
	return Challenge{}
}

// parseBearer reads the parameters of the Bearer challenge in one header
// value, which may hold several challenges.
func parseBearer(v string) (Challenge, bool) {
	var c Challenge
	found, inBearer := false, false
	for s := strings.TrimSpace(v); s != ""; {
		name, rest := token(s)
		rest = strings.TrimLeft(rest, " \t")
		if name == "" {
			s = strings.TrimLeft(s[1:], " \t") // a stray character: skip it
			continue
		}
		if !strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "==") {
			// A scheme name (token68 values are not used by Bearer).
			inBearer = strings.EqualFold(name, "Bearer")
			found = found || inBearer
			s = rest
			continue
		}
		value, after := paramValue(strings.TrimLeft(rest[1:], " \t"))
		if inBearer {
			switch strings.ToLower(name) {
			case "resource_metadata":
				c.ResourceMetadata = value
			case "scope":
				c.Scope = value
			case "error":
				c.Error = value
			}
		}
		s = strings.TrimLeft(strings.TrimLeft(after, " \t"), ",")
		s = strings.TrimLeft(s, " \t")
	}
	return c, found
}

// token splits off the leading HTTP token of s.
func token(s string) (tok, rest string) {
	i := strings.IndexFunc(s, func(r rune) bool {
		return r <= ' ' || r >= 0x7f || strings.ContainsRune(`()<>@,;:\"/[]?={}`, r)
	})
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// paramValue reads a token or a quoted string at the start of s.
func paramValue(s string) (value, rest string) {
	if !strings.HasPrefix(s, `"`) {
		return token(s)
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case '"':
			return b.String(), s[i+1:]
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), ""
}
