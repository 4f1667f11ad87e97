package signin

import (
	"errors"
	"sync"
)

// ErrNoRecord is a Store's answer for a server it holds nothing for.
var ErrNoRecord = errors.New("no sign-in stored")

// Store keeps each server's sign-in (tokens and client registration) as an
// opaque secret, by the server's URL. Implementations: Keyring (the
// default), Memory (headless, or tests), File (a 0600 file, by the
// person's choice).
type Store interface {
	Load(server string) ([]byte, error) // ErrNoRecord when there is none
	Save(server string, secret []byte) error
	Delete(server string) error // nil when there was none
}

// Memory is a Store that forgets everything when the program ends.
type Memory struct {
	mu sync.Mutex
	m  map[string][]byte
}

// NewMemory returns an empty Memory store.
func NewMemory() *Memory { return &Memory{m: make(map[string][]byte)} }

// Load returns the secret stored for server.
func (s *Memory) Load(server string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[server]
	if !ok {
		return nil, ErrNoRecord
	}
	return append([]byte(nil), b...), nil
}

// Save stores secret for server.
func (s *Memory) Save(server string, secret []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[server] = append([]byte(nil), secret...)
	return nil
}

// Delete forgets server's secret.
func (s *Memory) Delete(server string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, server)
	return nil
}
