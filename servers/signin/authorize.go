package signin

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// authorize runs one whole sign-in and stores its tokens.
func (s *Signer) authorize(ctx context.Context, serverURL string, ch Challenge, status func(Status)) error {
	prm, err := discoverResource(ctx, s.hc, serverURL, ch)
	if err != nil {
		return err
	}
	var md *serverMetadata
	resource := canonical(serverURL)
	if prm == nil {
		md, err = legacyServer(ctx, s.hc, serverURL)
	} else {
		resource = prm.Resource // exactly as published (RFC 9728 §3.3)
		md, err = discoverServer(ctx, s.hc, prm.AuthorizationServers[0])
		if errors.Is(err, errNotFound) {
			err = fmt.Errorf("the authorization server %q publishes no metadata", prm.AuthorizationServers[0])
		}
	}
	if err != nil {
		return err
	}

	prev, err := s.load(serverURL)
	if err != nil {
		return err
	}
	if prev != nil && (prev.Issuer != md.Issuer || prev.Resource != resource) {
		// Another authorization server now (SEP-2352): nothing of the old
		// one's, client or scopes, is valid here.
		s.log.Info("the server's authorization server changed: registering anew", "server", serverURL)
		prev = nil
	}
	var asked []string
	if prev != nil {
		asked = prev.Scopes
	}
	scopes := chooseScopes(ch, prm, md, asked)

	state := rand.Text()
	redirect, err := listenRedirect(state)
	if err != nil {
		return err
	}
	defer redirect.close()
	cl, err := s.identify(ctx, md, redirect.uri, prev)
	if err != nil {
		return err
	}
	cfg := oauthConfig(md, cl, redirect.uri, scopes)
	verifier := oauth2.GenerateVerifier()
	authURL := cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), resourceParam(resource))

	status(Status{Phase: WaitingForBrowser})
	opened := make(chan error, 1)
	bctx, stopBrowser := context.WithCancel(ctx)
	defer stopBrowser()
	go func() { opened <- s.browser.Open(bctx, authURL) }()
	q, err := waitReturn(ctx, redirect, opened)
	if err != nil {
		return err
	}
	code, err := checkReturn(q, md)
	if err != nil {
		return err
	}
	tok, err := cfg.Exchange(s.tokenContext(ctx, resource), code, oauth2.VerifierOption(verifier), resourceParam(resource))
	if err != nil {
		return tokenError("the authorization server did not give a token", err)
	}
	r := &record{Resource: resource, Issuer: md.Issuer, TokenURL: md.TokenEndpoint, Client: cl, Scopes: scopes}
	s.keep(r, tok)
	return s.save(serverURL, r)
}

// waitReturn waits for the browser to come back; a browser command that
// fails ends the wait, one that ends well leaves it to the person.
func waitReturn(ctx context.Context, redirect *redirectListener, opened <-chan error) (url.Values, error) {
	wctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case err := <-opened:
			if err != nil {
				cancel(err)
			}
		case <-wctx.Done():
		}
	}()
	q, err := redirect.wait(wctx)
	if cause := context.Cause(wctx); err != nil && cause != nil && ctx.Err() == nil {
		return nil, fmt.Errorf("cannot open the browser: %w", cause)
	}
	return q, err
}

// maxLifetime caps a token's expires_in (seconds): a year, far beyond any
// real token, and well inside time.Duration.
const maxLifetime = 365 * 24 * 3600

// keep puts tok into r, its expiry by the Signer's clock.
func (s *Signer) keep(r *record, tok *oauth2.Token) {
	r.Access = tok.AccessToken
	if tok.RefreshToken != "" {
		r.Refresh = tok.RefreshToken
	}
	r.Expiry = time.Time{}
	if tok.ExpiresIn > 0 {
		r.Expiry = s.now().Add(time.Duration(min(tok.ExpiresIn, maxLifetime)) * time.Second)
	}
}

// chooseScopes is the scope a sign-in asks for, as the MCP spec's scope
// selection strategy says: the challenge's, else the resource metadata's
// scopes_supported, else none; with those asked for before (SEP-2350) and
// offline_access when the authorization server offers it (SEP-2207).
func chooseScopes(ch Challenge, prm *resourceMetadata, md *serverMetadata, asked []string) []string {
	scopes := strings.Fields(ch.Scope)
	if len(scopes) == 0 && prm != nil {
		scopes = prm.ScopesSupported
	}
	out := slices.Clone(asked)
	for _, sc := range scopes {
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	if len(out) > 0 && slices.Contains(md.ScopesSupported, "offline_access") && !slices.Contains(out, "offline_access") {
		out = append(out, "offline_access")
	}
	return out
}

// asksMore reports whether ch wants scopes not among those asked for.
func asksMore(ch Challenge, asked []string) bool {
	for _, sc := range strings.Fields(ch.Scope) {
		if !slices.Contains(asked, sc) {
			return true
		}
	}
	return false
}
