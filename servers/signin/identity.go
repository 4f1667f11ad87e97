package signin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
)

// Token endpoint authentication methods (RFC 7591 §2).
const (
	authBasic = "client_secret_basic"
	authPost  = "client_secret_post"
	authNone  = "none"
)

// identify is the client Elicit Desk signs in as at the authorization
// server of md: the pre-registered one, else its Client ID Metadata
// Document's URL when the server accepts them, else one registered now
// (RFC 7591), else the one stored with an earlier sign-in there.
func (s *Signer) identify(ctx context.Context, md *serverMetadata, redirectURI string, prev *record) (client, error) {
	switch {
	case s.id.ClientID != "":
		return client{ID: s.id.ClientID, Secret: s.id.ClientSecret, AuthMethod: chooseAuth(md.TokenEndpointAuthMethodsSupported, s.id.ClientSecret != "")}, nil
	case s.id.MetadataURL != "" && md.ClientIDMetadataDocumentSupported:
		return client{ID: s.id.MetadataURL, AuthMethod: authNone}, nil
	case md.RegistrationEndpoint != "":
		// Registered anew each time: the redirect URI's port changes, and
		// servers that match it exactly would refuse the old client.
		return s.register(ctx, md, redirectURI)
	case prev != nil && prev.Client.ID != "":
		return prev.Client, nil
	}
	return client{}, errors.New("the authorization server offers no way to register Elicit Desk: it needs a client id given beforehand")
}

// chooseAuth picks how to authenticate at the token endpoint among the
// methods the server supports (RFC 8414's default: client_secret_basic).
func chooseAuth(supported []string, hasSecret bool) string {
	switch {
	case !hasSecret:
		return authNone
	case len(supported) == 0 || slices.Contains(supported, authBasic):
		return authBasic
	case slices.Contains(supported, authPost):
		return authPost
	}
	return authBasic
}

// registration is the client metadata sent to a registration endpoint and
// the part of its answer used.
type registration struct {
	ClientName      string   `json:"client_name,omitempty"`
	RedirectURIs    []string `json:"redirect_uris,omitempty"`
	GrantTypes      []string `json:"grant_types,omitempty"`
	ResponseTypes   []string `json:"response_types,omitempty"`
	AuthMethod      string   `json:"token_endpoint_auth_method,omitempty"`
	ApplicationType string   `json:"application_type,omitempty"`
	ClientID        string   `json:"client_id,omitempty"`
	ClientSecret    string   `json:"client_secret,omitempty"`
}

// register registers Elicit Desk as a native client (RFC 7591), public
// when the server allows it.
func (s *Signer) register(ctx context.Context, md *serverMetadata, redirectURI string) (client, error) {
	method := authNone
	if sup := md.TokenEndpointAuthMethodsSupported; len(sup) > 0 && !slices.Contains(sup, authNone) {
		method = chooseAuth(sup, true)
	}
	body, _ := json.Marshal(registration{
		ClientName: s.id.Name, RedirectURIs: []string{redirectURI},
		GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		AuthMethod: method, ApplicationType: "native",
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, md.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return client{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := s.hc.Do(req)
	if err != nil {
		return client{}, fmt.Errorf("registering with the authorization server: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		return client{}, fmt.Errorf("the authorization server refused to register Elicit Desk (%s)", resp.Status)
	}
	var got registration
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxMetadata)).Decode(&got); err != nil || got.ClientID == "" {
		return client{}, errors.New("the authorization server's registration answer has no client id")
	}
	if got.AuthMethod == "" {
		got.AuthMethod = method // as asked
	}
	return client{ID: got.ClientID, Secret: got.ClientSecret, AuthMethod: got.AuthMethod}, nil
}
