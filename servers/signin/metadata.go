package signin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// maxMetadata bounds a metadata document or token response: they are a
// few hundred bytes, and a server may send anything.
const maxMetadata = 1 << 20

// resourceMetadata is a server's protected resource metadata (RFC 9728).
type resourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// serverMetadata is an authorization server's metadata (RFC 8414, OpenID
// Connect Discovery), the fields a sign-in uses.
type serverMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
	IssParameterSupported             bool     `json:"authorization_response_iss_parameter_supported"`
}

// errNotFound is a metadata document that is not there.
var errNotFound = errors.New("not found")

// getJSON reads the JSON document at u into v; errNotFound when the server
// has none there (any 4xx).
func getJSON(ctx context.Context, hc *http.Client, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		return errNotFound
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %s", u, resp.Status)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxMetadata)).Decode(v); err != nil {
		return fmt.Errorf("%s is not a metadata document: %w", u, err)
	}
	return nil
}

// resourceMetadataURLs lists where a server's protected resource metadata
// may be, in the order RFC 9728 §3.1 and the MCP spec give: the URL its
// challenge names (on the server's own origin), else the path-based well-known URL, then the root one.
func resourceMetadataURLs(serverURL string, ch Challenge) ([]string, error) {
	if ch.ResourceMetadata != "" {
		if err := checkEndpoint("protected resource metadata URL", ch.ResourceMetadata); err != nil {
			return nil, err
		}
		// RFC 9728 §3: the metadata is published by the resource itself;
		// a challenge naming another origin would have Elicit Desk fetch
		// whatever URL the server likes.
		if err := onOrigin("protected resource metadata URL", ch.ResourceMetadata, serverURL); err != nil {
			return nil, err
		}
		return []string{ch.ResourceMetadata}, nil
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		return nil, err
	}
	const wk = "/.well-known/oauth-protected-resource"
	var urls []string
	if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
		urls = append(urls, origin(u)+wk+p)
	}
	return append(urls, origin(u)+wk), nil
}

// discoverResource reads the server's protected resource metadata and
// checks it names this server; nil, nil when the server publishes none
// (a 2025-03-26 server).
func discoverResource(ctx context.Context, hc *http.Client, serverURL string, ch Challenge) (*resourceMetadata, error) {
	urls, err := resourceMetadataURLs(serverURL, ch)
	if err != nil {
		return nil, err
	}
	md, err := firstDocument[resourceMetadata](ctx, hc, urls)
	switch {
	case errors.Is(err, errNotFound):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading the server's sign-in metadata: %w", err)
	case !covers(md.Resource, serverURL):
		return nil, fmt.Errorf("the server's sign-in metadata is for another resource (%q, not %q)", md.Resource, serverURL)
	case len(md.AuthorizationServers) == 0:
		return nil, errors.New("the server's sign-in metadata names no authorization server")
	}
	return md, nil
}

// firstDocument reads the first of urls the server has; errNotFound when
// it has none of them.
func firstDocument[T any](ctx context.Context, hc *http.Client, urls []string) (*T, error) {
	for _, u := range urls {
		var doc T
		if err := getJSON(ctx, hc, u, &doc); !errors.Is(err, errNotFound) {
			return &doc, err
		}
	}
	return nil, errNotFound
}

// serverMetadataURLs lists where the metadata of the authorization server
// issuer may be, in the MCP spec's order: RFC 8414 with the path inserted,
// OpenID Connect with the path inserted, then appended; without a path,
// RFC 8414 then OpenID Connect.
func serverMetadataURLs(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil, err
	}
	o := origin(u)
	if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
		return []string{
			o + "/.well-known/oauth-authorization-server" + p,
			o + "/.well-known/openid-configuration" + p,
			o + p + "/.well-known/openid-configuration",
		}, nil
	}
	return []string{o + "/.well-known/oauth-authorization-server", o + "/.well-known/openid-configuration"}, nil
}

// discoverServer reads and checks the metadata of the authorization server
// issuer; errNotFound when it publishes none.
func discoverServer(ctx context.Context, hc *http.Client, issuer string) (*serverMetadata, error) {
	if err := checkEndpoint("authorization server", issuer); err != nil {
		return nil, err
	}
	urls, err := serverMetadataURLs(issuer)
	if err != nil {
		return nil, err
	}
	md, err := firstDocument[serverMetadata](ctx, hc, urls)
	if errors.Is(err, errNotFound) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("reading the authorization server's metadata: %w", err)
	}
	// RFC 8414 §3.3: the issuer must be the one the URL was made from,
	// exactly, or the document may be another server's.
	if md.Issuer != issuer {
		return nil, fmt.Errorf("the authorization server's metadata names another issuer (%q, not %q)", md.Issuer, issuer)
	}
	return md, md.check()
}

// check refuses metadata whose endpoints a sign-in must not use: each
// must be on the issuer's origin, so that metadata cannot send the
// browser, the registration or the code and its verifier elsewhere.
func (md *serverMetadata) check() error {
	if md.AuthorizationEndpoint == "" || md.TokenEndpoint == "" {
		return errors.New("the authorization server's metadata lacks an authorization or token endpoint")
	}
	for _, e := range []struct{ what, url string }{
		{"authorization endpoint", md.AuthorizationEndpoint},
		{"token endpoint", md.TokenEndpoint},
		{"registration endpoint", md.RegistrationEndpoint},
	} {
		if e.url == "" { // only the registration endpoint may be absent
			continue
		}
		if err := checkEndpoint(e.what, e.url); err != nil {
			return err
		}
		if err := onOrigin(e.what, e.url, md.Issuer); err != nil {
			return err
		}
	}
	// The MCP spec: a client must refuse a server that does not say it
	// supports PKCE with S256.
	for _, m := range md.CodeChallengeMethodsSupported {
		if m == "S256" {
			return nil
		}
	}
	return errors.New("the authorization server does not support PKCE with S256")
}

// legacyServer is the authorization server of a 2025-03-26 server, which
// publishes no protected resource metadata: the server's own origin, with
// its metadata there or, failing that, the default endpoints.
func legacyServer(ctx context.Context, hc *http.Client, serverURL string) (*serverMetadata, error) {
	u, err := url.Parse(serverURL)
	if err != nil {
		return nil, err
	}
	issuer := origin(u)
	md, err := discoverServer(ctx, hc, issuer)
	if !errors.Is(err, errNotFound) {
		return md, err
	}
	md = &serverMetadata{
		Issuer:                        issuer,
		AuthorizationEndpoint:         issuer + "/authorize",
		TokenEndpoint:                 issuer + "/token",
		RegistrationEndpoint:          issuer + "/register",
		CodeChallengeMethodsSupported: []string{"S256"},
	}
	return md, md.check()
}

// sameHostOnly keeps discovery's redirects on the host asked: a metadata
// document fetched from elsewhere is no longer the server's word.
func sameHostOnly(req *http.Request, via []*http.Request) error {
	if len(via) >= 5 {
		return errors.New("too many redirects")
	}
	if !strings.EqualFold(req.URL.Host, via[0].URL.Host) || req.URL.Scheme != via[0].URL.Scheme {
		return fmt.Errorf("%s redirected to another host (%s)", via[0].URL.Host, req.URL.Host)
	}
	return nil
}
