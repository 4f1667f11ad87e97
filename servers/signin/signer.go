package signin

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// httpTimeout bounds each discovery, registration and token request.
const httpTimeout = 30 * time.Second

// Identity is how Elicit Desk identifies itself to authorization servers,
// in the MCP spec's order of preference: a client id registered with the
// server beforehand, else a Client ID Metadata Document when the server
// accepts them, else dynamic client registration.
type Identity struct {
	Name         string // shown by the authorization server: "Elicit Desk"
	ClientID     string // pre-registered, or ""
	ClientSecret string // of the pre-registered client, or ""
	MetadataURL  string // an https URL serving Elicit Desk's Client ID Metadata Document, or ""
}

// Options are what a Signer depends on.
type Options struct {
	Store    Store
	Browser  Browser
	Identity Identity
	HTTP     *http.Client     // for metadata, registration and tokens; nil: a plain client
	Now      func() time.Time // nil: time.Now
	Log      *slog.Logger     // nil: slog.Default(); secrets never reach it
}

// Signer signs in to remote MCP servers and keeps their tokens in its
// Store. It is safe for concurrent use: concurrent sign-ins to one server
// share one browser visit. Servers are named by their MCP endpoint URL.
type Signer struct {
	store   Store
	browser Browser
	id      Identity
	hc      *http.Client
	now     func() time.Time
	log     *slog.Logger
	flights singleflight.Group

	mu         sync.Mutex
	challenges map[string]Challenge // the last challenge each server sent
}

// New returns a Signer.
func New(o Options) *Signer {
	hc := &http.Client{Timeout: httpTimeout, CheckRedirect: sameHostOnly}
	if o.HTTP != nil {
		c := *o.HTTP
		c.CheckRedirect = sameHostOnly
		if c.Timeout == 0 {
			c.Timeout = httpTimeout
		}
		hc = &c
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Identity.Name == "" {
		o.Identity.Name = "Elicit Desk"
	}
	return &Signer{store: o.Store, browser: o.Browser, id: o.Identity, hc: hc, now: o.Now, log: o.Log, challenges: make(map[string]Challenge)}
}

// SignIn signs in to the server at serverURL: discovery, the person's
// approval in the browser, the token exchange; the tokens are stored only
// when all went well. status, if not nil, hears each phase (from this
// goroutine). ctx bounds the whole sign-in: its end is the Cancel button
// and the time limit. A sign-in already under way for the server is
// joined rather than repeated.
func (s *Signer) SignIn(ctx context.Context, serverURL string, status func(Status)) error {
	return s.signIn(ctx, serverURL, s.challenge(serverURL), status)
}

// SignOut forgets the server's tokens and client registration.
func (s *Signer) SignOut(serverURL string) error {
	s.mu.Lock()
	delete(s.challenges, serverURL)
	s.mu.Unlock()
	return s.store.Delete(serverURL)
}

// Status is where the server's sign-in stands now: SignedIn when a token
// (or a refresh token) is stored, else Needed.
func (s *Signer) Status(serverURL string) Status {
	r, err := s.load(serverURL)
	if err != nil {
		return Status{Phase: Failed, Err: err}
	}
	if r != nil && (r.Access != "" || r.Refresh != "") {
		return Status{Phase: SignedIn}
	}
	return Status{Phase: Needed}
}

func (s *Signer) challenge(serverURL string) Challenge {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.challenges[serverURL]
}

func (s *Signer) remember(serverURL string, ch Challenge) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.challenges[serverURL] = ch
}

func (s *Signer) signIn(ctx context.Context, serverURL string, ch Challenge, status func(Status)) error {
	if status == nil {
		status = func(Status) {}
	}
	done := s.flights.DoChan("signin "+serverURL, func() (any, error) {
		return nil, s.authorize(ctx, serverURL, ch, status)
	})
	var err error
	select {
	case res := <-done:
		err = res.Err
	case <-ctx.Done():
		err = stopped(ctx)
	}
	if err != nil {
		s.log.Info("sign-in failed", "server", serverURL, "err", err)
		status(Status{Phase: Failed, Err: err})
		return &Error{Server: serverURL, Err: err}
	}
	s.log.Info("signed in", "server", serverURL)
	status(Status{Phase: SignedIn})
	return nil
}

// accessToken returns a usable access token for the server, refreshing
// it when it has expired; ErrSignInNeeded when there is none.
func (s *Signer) accessToken(ctx context.Context, serverURL string) (string, error) {
	r, err := s.load(serverURL)
	if err != nil {
		return "", err
	}
	if r == nil || (r.Access == "" && r.Refresh == "") {
		return "", ErrSignInNeeded
	}
	if r.fresh(s.now()) {
		return r.Access, nil
	}
	if r.Refresh == "" {
		return "", fmt.Errorf("%w: the sign-in has expired", ErrSignInNeeded)
	}
	v, err, _ := s.flights.Do("refresh "+serverURL, func() (any, error) {
		return s.refresh(ctx, serverURL, r)
	})
	if err != nil {
		return "", err
	}
	return v.(string), nil
}

// discard drops a token the server refused, keeping the refresh token
// and the client registration.
func (s *Signer) discard(serverURL, access string) error {
	r, err := s.load(serverURL)
	if err != nil || r == nil || r.Access != access {
		return err
	}
	r.Access, r.Expiry = "", time.Time{}
	return s.save(serverURL, r)
}

// canonical is serverURL without a fragment: what the resource defaults to.
func canonical(serverURL string) string {
	u, err := url.Parse(serverURL)
	if err != nil {
		return serverURL
	}
	u.Fragment = ""
	return u.String()
}
