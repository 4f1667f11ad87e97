package signin

import (
	"encoding/json"
	"errors"
	"time"
)

// record is one server's sign-in as stored: the secret a Store keeps.
type record struct {
	Resource string    `json:"resource"` // sent as RFC 8707's resource
	Issuer   string    `json:"issuer"`   // the authorization server the client and tokens belong to
	TokenURL string    `json:"token_url"`
	Client   client    `json:"client"`
	Scopes   []string  `json:"scopes,omitempty"` // asked for so far, for step-up
	Access   string    `json:"access_token,omitempty"`
	Refresh  string    `json:"refresh_token,omitempty"`
	Expiry   time.Time `json:"expiry,omitzero"` // by the Signer's clock; zero when the server gave none
}

// client is how Elicit Desk is known to one authorization server.
type client struct {
	ID         string `json:"id"`
	Secret     string `json:"secret,omitempty"`
	AuthMethod string `json:"auth_method"` // client_secret_basic, client_secret_post or none
}

// expiryMargin is how long before its expiry a token is refreshed, so that
// it does not expire on the way.
const expiryMargin = 30 * time.Second

// fresh reports whether the access token is usable at now.
func (r *record) fresh(now time.Time) bool {
	return r.Access != "" && (r.Expiry.IsZero() || now.Add(expiryMargin).Before(r.Expiry))
}

func (s *Signer) load(server string) (*record, error) {
	b, err := s.store.Load(server)
	if errors.Is(err, ErrNoRecord) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r record
	if err := json.Unmarshal(b, &r); err != nil {
		// Not ours any more: treat as signed out rather than fail forever.
		s.log.Warn("ignored an unreadable stored sign-in", "server", server)
		return nil, nil
	}
	return &r, nil
}

func (s *Signer) save(server string, r *record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return s.store.Save(server, b)
}
