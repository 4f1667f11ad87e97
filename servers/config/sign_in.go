package config

import "net/http"

// SignsIn reports whether Elicit Desk signs in to s's server when it asks:
// a remote server whose entry does not set Authorization itself, as then
// the person chose the token, and a sign-in must not replace it.
func (s Server) SignsIn() bool {
	if s.Transport != TransportHTTP && s.Transport != TransportSSE {
		return false
	}
	for k := range s.Headers {
		if http.CanonicalHeaderKey(k) == "Authorization" {
			return false
		}
	}
	return true
}
