// Package signintest is an authorization server and an MCP resource it
// protects, on loopback, for tests of sign-in: it approves every
// authorization request at once, and has knobs for misbehaving.
package signintest

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// SecretMark is in every secret the server hands out (tokens, codes, the
// client secret), so a test can look for any of them in logs and texts.
const SecretMark = "SECRET"

// Server is an authorization server (AS) and an MCP resource (RS) it
// protects. Set its knobs before the first request.
type Server struct {
	AS, RS *httptest.Server

	mu         sync.Mutex
	issued     map[string][]string // access token → scopes
	refreshes  map[string]bool     // refresh tokens still accepted
	challenges map[string]string   // auth code → PKCE challenge
	n          int
	grants     []url.Values // token requests received
	register   int          // registration requests

	Issuer     string                           // metadata's issuer, "" for the right one
	TokenURL   string                           // metadata's token endpoint, "" for the right one
	AuthURL    string                           // metadata's authorization endpoint, "" for the right one
	RegURL     string                           // metadata's registration endpoint, "" for the right one
	PRMURL     string                           // the resource_metadata the resource's challenges name, "" for its own
	TokenReply func(w http.ResponseWriter) bool // answers token requests instead, when it returns true
	Need       func(n int) string               // scope the resource wants for its n'th refusal; nil: none
	PRMTo      string                           // where the metadata request is redirected, "" for nowhere
	Resource   string                           // the metadata's resource, "" for the right one
	MCP        http.Handler                     // answers authorized requests; nil: "hello"
	AuthServer string                           // the authorization server the metadata names, "" for AS
	refusals   int
}

// New starts a Server; the test's end stops it.
func New(t testing.TB) *Server {
	f := &Server{issued: map[string][]string{}, refreshes: map[string]bool{}, challenges: map[string]string{}}
	f.AS = httptest.NewServer(http.HandlerFunc(f.serveAS))
	f.RS = httptest.NewServer(http.HandlerFunc(f.serveRS))
	t.Cleanup(func() { f.AS.Close(); f.RS.Close() })
	return f
}

// ClientID is the client id the authorization server registers clients
// as: its own, so a test can tell which server a client came from.
func (f *Server) ClientID() string {
	return fmt.Sprintf("desk-%d", f.AS.Listener.Addr().(*net.TCPAddr).Port)
}

// Registrations is how many clients registered.
func (f *Server) Registrations() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.register
}

// URL is the MCP endpoint.
func (f *Server) URL() string { return f.RS.URL + "/mcp" }

func (f *Server) serveRS(w http.ResponseWriter, r *http.Request) {
	prm := cmp.Or(f.PRMURL, f.RS.URL+"/.well-known/oauth-protected-resource/mcp")
	switch r.URL.Path {
	case "/.well-known/oauth-protected-resource/mcp":
		if f.PRMTo != "" {
			http.Redirect(w, r, f.PRMTo, http.StatusFound)
			return
		}
		resource := f.URL()
		if f.Resource != "" {
			resource = f.Resource
		}
		json.NewEncoder(w).Encode(map[string]any{"resource": resource, "authorization_servers": []string{cmp.Or(f.AuthServer, f.AS.URL)}, "scopes_supported": []string{"read"}})
		return
	case "/mcp":
	default:
		if f.MCP == nil { // an MCP handler may have other paths (HTTP+SSE's)
			http.NotFound(w, r)
			return
		}
	}
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	f.mu.Lock()
	scopes, valid := f.issued[tok]
	var want string
	if ok && valid && f.Need != nil {
		f.refusals++
		want = f.Need(f.refusals)
		for _, s := range scopes {
			if s == want {
				want = ""
			}
		}
	}
	f.mu.Unlock()
	switch {
	case !ok || !valid:
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s"`, prm))
		http.Error(w, "sign in", http.StatusUnauthorized)
	case want != "":
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="%s", resource_metadata="%s"`, want, prm))
		http.Error(w, "more", http.StatusForbidden)
	case f.MCP != nil:
		f.MCP.ServeHTTP(w, r)
	default:
		fmt.Fprint(w, "hello")
	}
}

func (f *Server) serveAS(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server":
		md := map[string]any{
			"issuer": f.AS.URL, "authorization_endpoint": f.AS.URL + "/authorize", "token_endpoint": f.AS.URL + "/token",
			"registration_endpoint": f.AS.URL + "/register", "code_challenge_methods_supported": []string{"S256"},
			"token_endpoint_auth_methods_supported":          []string{"client_secret_basic"},
			"scopes_supported":                               []string{"read", "write", "offline_access"},
			"authorization_response_iss_parameter_supported": true,
		}
		if f.Issuer != "" {
			md["issuer"] = f.Issuer
		}
		for key, u := range map[string]string{"token_endpoint": f.TokenURL, "authorization_endpoint": f.AuthURL, "registration_endpoint": f.RegURL} {
			if u != "" {
				md[key] = u
			}
		}
		json.NewEncoder(w).Encode(md)
	case "/register":
		f.mu.Lock()
		f.register++
		f.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"client_id": f.ClientID(), "client_secret": "client-" + SecretMark, "token_endpoint_auth_method": "client_secret_basic"})
	case "/authorize":
		q := r.URL.Query()
		f.mu.Lock()
		f.n++
		code := fmt.Sprintf("code-%s-%d-%s", SecretMark, f.n, strings.ReplaceAll(q.Get("scope"), " ", "+"))
		f.challenges[code] = q.Get("code_challenge")
		f.mu.Unlock()
		back, _ := url.Parse(q.Get("redirect_uri"))
		v := back.Query()
		v.Set("code", code)
		v.Set("state", q.Get("state"))
		v.Set("iss", f.AS.URL)
		back.RawQuery = v.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	case "/token":
		r.ParseForm()
		f.mu.Lock()
		defer f.mu.Unlock()
		f.grants = append(f.grants, r.PostForm)
		if f.TokenReply != nil && f.TokenReply(w) {
			return
		}
		if id, secret, ok := r.BasicAuth(); !ok || id != f.ClientID() || secret != "client-"+SecretMark {
			tokenErr(w, "invalid_client")
			return
		}
		var scopes []string
		switch r.PostForm.Get("grant_type") {
		case "authorization_code":
			code := r.PostForm.Get("code")
			sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
			if ch, ok := f.challenges[code]; !ok || ch != base64.RawURLEncoding.EncodeToString(sum[:]) {
				tokenErr(w, "invalid_grant")
				return
			}
			delete(f.challenges, code)
			scopes = strings.Split(strings.SplitN(code, "-", 4)[3], "+")
		case "refresh_token":
			if !f.refreshes[r.PostForm.Get("refresh_token")] {
				tokenErr(w, "invalid_grant")
				return
			}
			delete(f.refreshes, r.PostForm.Get("refresh_token")) // rotated: each is good once
			scopes = []string{"read"}
		default:
			tokenErr(w, "unsupported_grant_type")
			return
		}
		f.n++
		access, refresh := fmt.Sprintf("access-%s-%d", SecretMark, f.n), fmt.Sprintf("refresh-%s-%d", SecretMark, f.n)
		f.issued[access] = scopes
		f.refreshes[refresh] = true
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": 3600, "refresh_token": refresh})
	default:
		http.NotFound(w, r)
	}
}

func tokenErr(w http.ResponseWriter, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	json.NewEncoder(w).Encode(map[string]string{"error": code})
}

// Revoke makes the server refuse every refresh token it gave.
func (f *Server) Revoke() {
	f.mu.Lock()
	defer f.mu.Unlock()
	clear(f.refreshes)
}

// LastGrant is the last token request's form.
func (f *Server) LastGrant() url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.grants[len(f.grants)-1]
}

// Grants is how many token requests the server received.
func (f *Server) Grants() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.grants)
}

// Follow is a browser stand-in: it visits the authorization URL and
// follows the redirect back, as a person who approves at once. toServer
// and back, when set, change the URL going out and coming back. Wrap it
// in signin.BrowserFunc.
func Follow(toServer, back func(*url.URL)) func(ctx context.Context, raw string) error {
	return func(ctx context.Context, raw string) error {
		u, err := url.Parse(raw)
		if err != nil {
			return err
		}
		if toServer != nil {
			toServer(u)
		}
		hc := &http.Client{CheckRedirect: func(r *http.Request, _ []*http.Request) error {
			if back != nil {
				back(r.URL)
			}
			return nil
		}}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
}
