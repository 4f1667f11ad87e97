package signin

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// secretMark is in every secret the fake servers hand out, so a test can
// look for any of them in logs and error texts.
const secretMark = "SECRET"

// fakeAuth is an authorization server and an MCP resource it protects,
// both on loopback, with knobs for misbehaving.
type fakeAuth struct {
	as, rs *httptest.Server

	mu         sync.Mutex
	issued     map[string][]string // access token → scopes
	refreshes  map[string]bool     // refresh tokens still accepted
	challenges map[string]string   // auth code → PKCE challenge
	n          int
	grants     []url.Values // token requests received
	register   int          // registration requests

	// knobs
	issuer     string                           // metadata's issuer, "" for the right one
	tokenURL   string                           // metadata's token endpoint, "" for the right one
	tokenReply func(w http.ResponseWriter) bool // answers token requests instead, when it returns true
	need       func(n int) string               // scope the resource wants for its n'th refusal; nil: none
	prmTo      string                           // where the metadata request is redirected, "" for nowhere
	resource   string                           // the metadata's resource, "" for the right one
	mcp        http.Handler                     // answers authorized requests; nil: "hello"
	refusals   int
}

func newFakeAuth(t *testing.T) *fakeAuth {
	f := &fakeAuth{issued: map[string][]string{}, refreshes: map[string]bool{}, challenges: map[string]string{}}
	f.as = httptest.NewServer(http.HandlerFunc(f.serveAS))
	f.rs = httptest.NewServer(http.HandlerFunc(f.serveRS))
	t.Cleanup(func() { f.as.Close(); f.rs.Close() })
	return f
}

// url is the MCP endpoint.
func (f *fakeAuth) url() string { return f.rs.URL + "/mcp" }

func (f *fakeAuth) serveRS(w http.ResponseWriter, r *http.Request) {
	prm := f.rs.URL + "/.well-known/oauth-protected-resource/mcp"
	switch r.URL.Path {
	case "/.well-known/oauth-protected-resource/mcp":
		if f.prmTo != "" {
			http.Redirect(w, r, f.prmTo, http.StatusFound)
			return
		}
		resource := f.url()
		if f.resource != "" {
			resource = f.resource
		}
		json.NewEncoder(w).Encode(map[string]any{"resource": resource, "authorization_servers": []string{f.as.URL}, "scopes_supported": []string{"read"}})
		return
	case "/mcp":
	default:
		http.NotFound(w, r)
		return
	}
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	f.mu.Lock()
	scopes, valid := f.issued[tok]
	var want string
	if ok && valid && f.need != nil {
		f.refusals++
		want = f.need(f.refusals)
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
	case f.mcp != nil:
		f.mcp.ServeHTTP(w, r)
	default:
		fmt.Fprint(w, "hello")
	}
}

func (f *fakeAuth) serveAS(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server":
		md := map[string]any{
			"issuer": f.as.URL, "authorization_endpoint": f.as.URL + "/authorize", "token_endpoint": f.as.URL + "/token",
			"registration_endpoint": f.as.URL + "/register", "code_challenge_methods_supported": []string{"S256"},
			"token_endpoint_auth_methods_supported":          []string{"client_secret_basic"},
			"scopes_supported":                               []string{"read", "write", "offline_access"},
			"authorization_response_iss_parameter_supported": true,
		}
		if f.issuer != "" {
			md["issuer"] = f.issuer
		}
		if f.tokenURL != "" {
			md["token_endpoint"] = f.tokenURL
		}
		json.NewEncoder(w).Encode(md)
	case "/register":
		f.mu.Lock()
		f.register++
		f.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"client_id": "desk", "client_secret": "client-" + secretMark, "token_endpoint_auth_method": "client_secret_basic"})
	case "/authorize":
		q := r.URL.Query()
		f.mu.Lock()
		f.n++
		code := fmt.Sprintf("code-%s-%d-%s", secretMark, f.n, strings.ReplaceAll(q.Get("scope"), " ", "+"))
		f.challenges[code] = q.Get("code_challenge")
		f.mu.Unlock()
		back, _ := url.Parse(q.Get("redirect_uri"))
		v := back.Query()
		v.Set("code", code)
		v.Set("state", q.Get("state"))
		v.Set("iss", f.as.URL)
		back.RawQuery = v.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	case "/token":
		r.ParseForm()
		f.mu.Lock()
		defer f.mu.Unlock()
		f.grants = append(f.grants, r.PostForm)
		if f.tokenReply != nil && f.tokenReply(w) {
			return
		}
		if id, secret, ok := r.BasicAuth(); !ok || id != "desk" || secret != "client-"+secretMark {
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
			scopes = []string{"read"}
		default:
			tokenErr(w, "unsupported_grant_type")
			return
		}
		f.n++
		access, refresh := fmt.Sprintf("access-%s-%d", secretMark, f.n), fmt.Sprintf("refresh-%s-%d", secretMark, f.n)
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

// revoke makes the server refuse every refresh token it gave.
func (f *fakeAuth) revoke() {
	f.mu.Lock()
	defer f.mu.Unlock()
	clear(f.refreshes)
}

// lastGrant is the last token request's form.
func (f *fakeAuth) lastGrant() url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.grants[len(f.grants)-1]
}
