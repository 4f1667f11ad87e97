package signin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
)

// maxSignIns bounds the sign-ins one request may cause: a server that
// keeps asking for more scopes is not asked forever.
const maxSignIns = 3

// Transport returns an http.RoundTripper for requests to the server at
// serverURL: it adds the server's bearer token and, on a 401 (or a 403 for
// insufficient_scope), either signs in and sends the request again
// (interactive: the CLI) or fails with ErrSignInNeeded (the app, which
// shows a Sign in button and calls SignIn). status hears the sign-in's
// phases; it may be nil.
func (s *Signer) Transport(serverURL string, base http.RoundTripper, interactive bool, status func(Status)) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	u, _ := url.Parse(serverURL) // one that does not parse is no request's origin
	return &transport{s: s, server: serverURL, origin: u, base: base, interactive: interactive, status: status}
}

type transport struct {
	s           *Signer
	server      string
	origin      *url.URL // the server's: the only one its token goes to
	base        http.RoundTripper
	interactive bool
	status      func(Status)

	mu     sync.Mutex
	failed error // a sign-in of this connection failed: not tried again
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !sameOrigin(req.URL, t.origin) {
		// A redirect to another origin: the token was issued for the
		// server alone, and another origin's 401 is no reason to sign in
		// to the server. http.Client strips only the headers its caller
		// set, not those a RoundTripper adds, so this is the one check.
		return t.base.RoundTrip(req)
	}
	ctx := req.Context()
	signIns := 0
	for attempt := 0; ; attempt++ {
		tok, need := t.s.accessToken(ctx, t.server)
		if need != nil && !errors.Is(need, ErrSignInNeeded) {
			return nil, &Error{Server: t.server, Err: need}
		}
		r, err := resend(req, attempt)
		if err != nil {
			return nil, err
		}
		if tok != "" {
			r.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		ch := ParseChallenge(resp.Header)
		if resp.StatusCode != http.StatusUnauthorized && !(resp.StatusCode == http.StatusForbidden && ch.InsufficientScope()) {
			return resp, nil
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxMetadata))
		resp.Body.Close()
		t.s.remember(t.server, ch)
		if tok != "" && resp.StatusCode == http.StatusUnauthorized && attempt == 0 {
			// The server refused the token: drop it; a refresh token,
			// if any, gets one more try before a sign-in.
			if err := t.s.discard(t.server, tok); err != nil {
				return nil, err
			}
			continue
		}
		if err := t.signInAgain(ctx, ch, signIns, need); err != nil {
			var se *Error
			if !errors.As(err, &se) {
				err = &Error{Server: t.server, Err: err}
			}
			return nil, err
		}
		signIns++
	}
}

// signInAgain signs in after a refusal, unless the transport is not to
// (need, if not nil, says why one is needed), a sign-in of this
// connection failed already, the server asks for no scope it was not
// given, or this request caused maxSignIns sign-ins.
func (t *transport) signInAgain(ctx context.Context, ch Challenge, signIns int, need error) error {
	if !t.interactive {
		if need != nil {
			return need
		}
		return ErrSignInNeeded
	}
	t.mu.Lock()
	failed := t.failed
	t.mu.Unlock()
	if failed != nil {
		return failed
	}
	if ch.InsufficientScope() {
		if r, _ := t.s.load(t.server); r != nil && !asksMore(ch, r.Scopes) {
			return fmt.Errorf("the server refuses access with every scope asked for (it wants %q)", ch.Scope)
		}
	}
	if signIns == maxSignIns {
		return fmt.Errorf("the server still refuses access after %d sign-ins", maxSignIns)
	}
	err := t.s.signIn(ctx, t.server, ch, t.status)
	if err != nil {
		t.mu.Lock()
		t.failed = err
		t.mu.Unlock()
	}
	return err
}

// resend is req for its attempt'th sending: the body again from the start.
func resend(req *http.Request, attempt int) (*http.Request, error) {
	r := req.Clone(req.Context())
	if attempt == 0 || req.Body == nil || req.Body == http.NoBody {
		return r, nil
	}
	if req.GetBody == nil {
		return nil, errors.New("cannot send the request again after signing in")
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, err
	}
	r.Body = body
	return r, nil
}
