package signin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/oauth2"
)

// oauthConfig is the golang.org/x/oauth2 configuration of one sign-in.
func oauthConfig(md *serverMetadata, cl client, redirectURI string, scopes []string) *oauth2.Config {
	cfg := &oauth2.Config{
		ClientID:    cl.ID,
		RedirectURL: redirectURI,
		Scopes:      scopes,
		Endpoint:    oauth2.Endpoint{AuthURL: md.AuthorizationEndpoint, TokenURL: md.TokenEndpoint, AuthStyle: oauth2.AuthStyleInParams},
	}
	switch cl.AuthMethod {
	case authBasic:
		cfg.ClientSecret, cfg.Endpoint.AuthStyle = cl.Secret, oauth2.AuthStyleInHeader
	case authPost:
		cfg.ClientSecret = cl.Secret
	}
	return cfg
}

// resourceParam is RFC 8707's resource parameter.
func resourceParam(resource string) oauth2.AuthCodeOption {
	return oauth2.SetAuthURLParam("resource", resource)
}

// tokenContext carries the HTTP client x/oauth2 sends token requests with.
// x/oauth2 cannot add a parameter to a refresh request, and the MCP spec
// wants the resource in every token request, so this client's transport
// adds it to refresh requests that lack it: the one place the library is
// worked around.
func (s *Signer) tokenContext(ctx context.Context, resource string) context.Context {
	hc := *s.hc
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc.Transport = withResource{base: base, resource: resource}
	return context.WithValue(ctx, oauth2.HTTPClient, &hc)
}

// withResource adds the resource parameter to refresh requests.
type withResource struct {
	base     http.RoundTripper
	resource string
}

func (t withResource) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || req.Body == nil || !strings.HasPrefix(req.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		return t.base.RoundTrip(req)
	}
	b, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	form, err := url.ParseQuery(string(b))
	if err == nil && form.Get("grant_type") == "refresh_token" && !form.Has("resource") {
		form.Set("resource", t.resource)
		b = []byte(form.Encode())
	}
	r := req.Clone(req.Context())
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	return t.base.RoundTrip(r)
}

// refresh trades the record's refresh token for a new access token and
// stores it. A refresh token the server no longer accepts is forgotten,
// and the error says a sign-in is needed.
func (s *Signer) refresh(ctx context.Context, serverURL string, r *record) (string, error) {
	cfg := oauthConfig(&serverMetadata{TokenEndpoint: r.TokenURL}, r.Client, "", nil)
	// An empty access token makes x/oauth2 refresh whatever its own clock says.
	tok, err := cfg.TokenSource(s.tokenContext(ctx, r.Resource), &oauth2.Token{RefreshToken: r.Refresh}).Token()
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.ErrorCode == "invalid_grant" {
		// Another process sharing the store (the app, the CLI) may have
		// used the refresh token first and kept what it got.
		if cur, _ := s.load(serverURL); cur != nil && cur.Refresh != r.Refresh && cur.fresh(s.now()) {
			return cur.Access, nil
		}
		r.Access, r.Refresh = "", ""
		if err := s.save(serverURL, r); err != nil {
			return "", err
		}
		s.log.Info("the saved sign-in was revoked", "server", serverURL)
		return "", fmt.Errorf("%w: the server no longer accepts the saved sign-in", ErrSignInNeeded)
	}
	if err != nil {
		return "", tokenError("refreshing the sign-in failed", err)
	}
	s.keep(r, tok)
	if err := s.save(serverURL, r); err != nil {
		return "", err
	}
	return r.Access, nil
}

// tokenError says in plain words what a token request's failure was,
// without the response body, which may hold anything.
func tokenError(what string, err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		if re.ErrorCode != "" {
			if re.ErrorDescription != "" {
				return fmt.Errorf("%s: %s (%s)", what, re.ErrorCode, re.ErrorDescription)
			}
			return fmt.Errorf("%s: %s", what, re.ErrorCode)
		}
		return fmt.Errorf("%s: it answered %s", what, re.Response.Status)
	}
	// x/oauth2's words: "cannot fetch token: …" when the request failed,
	// others ("server response missing access_token", "cannot parse
	// json") for an answer that is no token.
	if msg, ok := strings.CutPrefix(err.Error(), "oauth2: cannot fetch token: "); ok {
		return fmt.Errorf("%s: cannot reach it: %s", what, msg)
	}
	return fmt.Errorf("%s: its answer is not a token", what)
}
