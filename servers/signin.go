package servers

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// errRedial ends a live connection whose server's sign-in changed, so that
// the next one has the sign-in as it is now.
var errRedial = errors.New("the sign-in changed")

// UseSigner has remote servers that ask for a sign-in show
// StateNeedsSignIn, until SignIn; call it before the first Apply.
func (m *Manager) UseSigner(s *signin.Signer) {
	m.signer = s
}

// signInWrap adds the sign-in to cfg's requests, failing them with
// signin.ErrSignInNeeded rather than signing in; nil for a server that
// does not sign in (config.Server.SignsIn).
func (m *Manager) signInWrap(cfg config.Server) Wrap {
	if m.signer == nil || !cfg.SignsIn() {
		return nil
	}
	return func(base http.RoundTripper) http.RoundTripper {
		return m.signer.Transport(cfg.URL, base, false, nil)
	}
}

// signedIn reports whether a sign-in to cfg's server is stored.
func (m *Manager) signedIn(cfg config.Server) bool {
	return m.signInWrap(cfg) != nil && m.signer.Status(cfg.URL).Phase == signin.SignedIn
}

// SignIn signs in to the remote server called name (the person approves
// in the browser) and connects to it again at once. status hears the
// sign-in's phases, from this goroutine; ctx's end is the Cancel button
// and the time limit. The error is a *signin.Error in plain words.
func (m *Manager) SignIn(ctx context.Context, name string, status func(signin.Status)) error {
	s, err := m.signInTarget(name)
	if err != nil {
		return err
	}
	// Signed in meanwhile by another program sharing the store
	// (elicitdesk login, a bridge): no browser, just connect.
	if m.signer.Status(s.cfg.URL).Phase != signin.SignedIn {
		if err := m.signer.SignIn(ctx, s.cfg.URL, status); err != nil {
			return err
		}
	}
	m.reconnectURL(s.cfg.URL)
	return nil
}

// SignOut forgets the sign-in to the server called name and connects to
// it again, which then needs a sign-in.
func (m *Manager) SignOut(name string) error {
	s, err := m.signInTarget(name)
	if err != nil {
		return err
	}
	if err := m.signer.SignOut(s.cfg.URL); err != nil {
		return err
	}
	m.reconnectURL(s.cfg.URL)
	return nil
}

// reconnectURL connects again to every server at url that signs in: a
// sign-in serves them all, and the browser's wait may have outlasted the
// supervisor that asked (the entry was edited meanwhile).
func (m *Manager) reconnectURL(url string) {
	m.mu.Lock()
	var due []*supervisor
	for _, s := range m.sups {
		if s.cfg.URL == url && m.signInWrap(s.cfg) != nil {
			due = append(due, s)
		}
	}
	m.mu.Unlock()
	for _, s := range due {
		s.reconnect()
	}
}

// signInTarget is the supervisor of a server one can sign in to.
func (m *Manager) signInTarget(name string) (*supervisor, error) {
	m.mu.Lock()
	s, ok := m.sups[name]
	m.mu.Unlock()
	switch {
	case !ok:
		return nil, fmt.Errorf("no server %q", name)
	case m.signInWrap(s.cfg) == nil:
		return nil, fmt.Errorf("server %q has no sign-in", name)
	}
	return s, nil
}

// reconnect makes the supervisor connect again at once, whatever it is
// doing: its sign-in changed.
func (s *supervisor) reconnect() {
	select {
	case s.redial <- struct{}{}:
	default: // already due
	}
}
