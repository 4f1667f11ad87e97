package link

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
)

// secretBytes is the secret's strength: 256 random bits.
const secretBytes = 32

// NewSecret returns a new random secret for Listen, as base64url text
// that fits in a URL path and a header as it is. A Listener serves only
// hosts that present its secret, since any program on the machine can
// reach a loopback port and the servers behind the bridge act with the
// person's rights: in the path of the URL (http://127.0.0.1:PORT/SECRET/mcp)
// or, from hosts that send headers, as "Authorization: Bearer SECRET".
func NewSecret() string {
	b := make([]byte, secretBytes)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// CheckSecret refuses a secret that NewSecret could not have made: too
// short to resist guessing, or with characters that a URL path would
// change.
func CheckSecret(secret string) error {
	b, err := base64.RawURLEncoding.DecodeString(secret)
	if err != nil || len(b) < secretBytes {
		return fmt.Errorf("a listener secret must be %d random bytes in unpadded base64url", secretBytes)
	}
	return nil
}

// presents reports whether r carries secret, in the Authorization header
// or as the first segment of its path. Both compare in constant time.
func presents(r *http.Request, secret string) bool {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if strings.EqualFold(scheme, "Bearer") && same(strings.TrimSpace(token), secret) {
		return true
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	return same(first, secret)
}

func same(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
