package traffic

import (
	"fmt"
	"slices"
)

// Scope is whose messages a capture keeps: every server's, or those of
// the servers and bridged sessions it names. A server is named as its
// entries are (the configured name, or a bridged session's server), so
// naming one keeps both its own connection and its bridged sessions.
type Scope struct {
	All      bool     `json:"all,omitempty"`
	Servers  []string `json:"servers,omitempty"`
	Sessions []string `json:"sessions,omitempty"`
}

// MaxScoped bounds the servers, and the sessions, a Scope names.
const MaxScoped = 256

// Keeps says whether the messages of server's connection, or of bridged
// session's (session "" for the core's own connections), are kept.
func (s Scope) Keeps(server, session string) bool {
	return s.All || slices.Contains(s.Servers, server) || session != "" && slices.Contains(s.Sessions, session)
}

// None: s keeps no one's messages.
func (s Scope) None() bool { return !s.All && len(s.Servers) == 0 && len(s.Sessions) == 0 }

// Check says what is wrong with s: too many names.
func (s Scope) Check() error {
	if len(s.Servers) > MaxScoped || len(s.Sessions) > MaxScoped {
		return fmt.Errorf("a capture names at most %d servers and %d sessions, not %d and %d", MaxScoped, MaxScoped, len(s.Servers), len(s.Sessions))
	}
	return nil
}

// With returns s keeping server's messages (session "") or session's, or
// no longer, as on says; All stays as it is.
func (s Scope) With(server, session string, on bool) Scope {
	list, name := &s.Servers, server
	if session != "" {
		list, name = &s.Sessions, session
	}
	*list = slices.DeleteFunc(slices.Clone(*list), func(n string) bool { return n == name })
	if on {
		*list = append(*list, name)
	}
	return s
}
