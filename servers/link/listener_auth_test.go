package link

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/testkit/leaktest"
)

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"host"}}}`

// listen starts a Listener on 127.0.0.1 with a new secret.
func listen(t *testing.T) *Listener {
	t.Helper()
	l, err := Listen(context.Background(), "127.0.0.1:0", NewSecret(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// boundedHTTP is a test client whose requests fail after a while rather
// than hang: a listener that wrongly admits a host leaves requests no one
// answers.
func boundedHTTP() *http.Client {
	hc := testHTTP()
	hc.Timeout = 10 * time.Second
	return hc
}

// openSession initializes a host session at url and answers it as the
// server would; it returns the session id and the session's Link.
func openSession(t *testing.T, l *Listener, hc *http.Client, url string, hdr ...string) (string, Link) {
	t.Helper()
	resps := hostReqAsync(t, hc, "POST", url, "", initialize, hdr...)
	link, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	if m, err := link.Read(); err != nil || m.Method != "initialize" {
		t.Fatalf("read %s %v", m.Raw, err)
	}
	answer, _ := Parse([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	if err := link.Write(context.Background(), answer); err != nil {
		t.Fatal(err)
	}
	resp := <-resps
	if resp == nil {
		t.FailNow()
	}
	defer resp.Body.Close()
	io.ReadAll(resp.Body)
	sid := resp.Header.Get(headerSession)
	if resp.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %s, session %q", resp.Status, sid)
	}
	return sid, link
}

// refusal checks resp is a JSON-RPC error with status want, and returns
// the error's message.
func refusal(t *testing.T, resp *http.Response, want int) string {
	t.Helper()
	defer resp.Body.Close()
	var body struct {
		JSONRPC string
		Error   struct {
			Code    int
			Message string
		}
	}
	err := json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != want || err != nil || body.JSONRPC != "2.0" || body.Error.Code == 0 || body.Error.Message == "" {
		t.Errorf("got %s, JSON-RPC %+v (%v); want %d with a JSON-RPC error", resp.Status, body, err, want)
	}
	return body.Error.Message
}

// noSessions checks l started no session and offered none to Accept: no
// server would have been started.
func noSessions(t *testing.T, l *Listener) {
	t.Helper()
	l.mu.Lock()
	n := len(l.sessions)
	none := l.sessionless == nil
	l.mu.Unlock()
	if n != 0 || !none || len(l.accepts) != 0 {
		t.Errorf("%d sessions, sessionless %v, %d waiting for Accept: want none", n, !none, len(l.accepts))
	}
}

// TestListenerSecret checks only a host that presents the listener's
// secret, in the path of the URL or as a bearer token, is served: any
// program on the machine can reach a loopback port (issue 22).
func TestListenerSecret(t *testing.T) {
	defer leaktest.Check(t)()
	l := listen(t)
	defer l.Close()
	hc := boundedHTTP()
	defer hc.CloseIdleConnections()
	wrong := NewSecret()
	base := "http://" + l.Addr().String()
	if l.URL() != base+"/"+l.secret+"/mcp" || l.HeaderURL() != base+"/mcp" {
		t.Fatalf("URL %s, HeaderURL %s", l.URL(), l.HeaderURL())
	}

	for _, tt := range []struct {
		name string
		url  string
		hdr  []string
	}{
		{"no secret", base + "/mcp", nil},
		{"no secret, 2026-07-28", base + "/mcp", []string{headerVersion, "2026-07-28"}},
		{"wrong secret in the header", base + "/mcp", []string{"Authorization", "Bearer " + wrong}},
		{"wrong secret in the path", base + "/" + wrong + "/mcp", nil},
		{"secret in another scheme", base + "/mcp", []string{"Authorization", "Basic " + l.secret}},
		{"secret in a query string", base + "/mcp?secret=" + l.secret, nil},
		{"secret deeper in the path", base + "/mcp/" + l.secret, nil},
		{"part of the secret", base + "/" + l.secret[:len(l.secret)-1] + "/mcp", nil},
		{"empty bearer", base + "/mcp", []string{"Authorization", "Bearer "}},
	} {
		admitted := !t.Run(tt.name, func(t *testing.T) {
			for _, method := range []string{"POST", "GET", "DELETE"} {
				resp := hostReq(t, hc, method, tt.url, "", initialize, tt.hdr...)
				if got := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer") {
					t.Errorf("%s: WWW-Authenticate %q", method, got)
				}
				if msg := refusal(t, resp, http.StatusUnauthorized); strings.Contains(msg, l.secret) {
					t.Errorf("%s: the refusal tells the secret: %s", method, msg)
				}
			}
			noSessions(t, l)
		})
		if admitted {
			t.Fatal("the rest needs a listener that admitted no host without the secret")
		}
	}

	for _, tt := range []struct {
		name string
		url  string
		hdr  []string
	}{
		{"secret in the path", l.URL(), nil},
		{"secret in the header", l.HeaderURL(), []string{"Authorization", "Bearer " + l.secret}},
		{"secret in the header, scheme in lower case", l.HeaderURL(), []string{"Authorization", "bearer " + l.secret}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sid, link := openSession(t, l, hc, tt.url, tt.hdr...)
			resp := hostReq(t, hc, "POST", tt.url, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, tt.hdr...)
			resp.Body.Close()
			if resp.StatusCode != http.StatusAccepted {
				t.Errorf("notification: %s", resp.Status)
			}
			if m, err := link.Read(); err != nil || m.Method != "notifications/initialized" {
				t.Errorf("read %s %v", m.Raw, err)
			}
			// Each request needs the secret, not only the first.
			refusal(t, hostReq(t, hc, "POST", l.HeaderURL(), sid, `{"jsonrpc":"2.0","method":"x"}`), http.StatusUnauthorized)
			refusal(t, hostReq(t, hc, "DELETE", l.HeaderURL(), sid, ""), http.StatusUnauthorized)
			resp = hostReq(t, hc, "DELETE", tt.url, sid, "", tt.hdr...)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("DELETE: %s", resp.Status)
			}
		})
	}
}

// TestListenerSessionLimit checks a listener runs at most MaxSessions
// sessions, each a server: one more is refused with 503 and Retry-After,
// before any Link is offered, and a session that ends, by DELETE or on
// the bridge's side, frees its place.
func TestListenerSessionLimit(t *testing.T) {
	defer leaktest.Check(t)()
	l := listen(t)
	defer l.Close()
	hc := boundedHTTP()
	defer hc.CloseIdleConnections()
	url := l.URL()
	sids := make([]string, MaxSessions)
	links := make([]Link, MaxSessions)
	for i := range MaxSessions {
		sids[i], links[i] = openSession(t, l, hc, url)
	}

	full := func(t *testing.T) {
		t.Helper()
		for _, tt := range []struct {
			name string
			hdr  []string
		}{
			{"initialize", nil},
			{"2026-07-28", []string{headerVersion, "2026-07-28"}},
		} {
			resp := hostReq(t, hc, "POST", url, "", initialize, tt.hdr...)
			if resp.Header.Get("Retry-After") == "" {
				t.Errorf("%s: no Retry-After", tt.name)
			}
			if msg := refusal(t, resp, http.StatusServiceUnavailable); !strings.Contains(msg, "at most 8") {
				t.Errorf("%s: %q does not say why", tt.name, msg)
			}
		}
		l.mu.Lock()
		n := len(l.sessions)
		l.mu.Unlock()
		if n != MaxSessions || len(l.accepts) != 0 {
			t.Errorf("%d sessions, %d waiting for Accept; want %d and none", n, len(l.accepts), MaxSessions)
		}
	}
	// Each step needs the one before: the sessions are as it left them.
	if !t.Run("full", full) {
		return
	}
	if !t.Run("DELETE frees a place", func(t *testing.T) {
		resp := hostReq(t, hc, "DELETE", url, sids[0], "")
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("DELETE: %s", resp.Status)
		}
		sids[0], links[0] = openSession(t, l, hc, url)
		full(t)
	}) {
		return
	}
	if !t.Run("an ended session frees a place", func(t *testing.T) {
		links[1].Close() // as the bridge does when the server exits
		sids[1], links[1] = openSession(t, l, hc, url)
		full(t)
	}) {
		return
	}

	t.Run("the sessions still work", func(t *testing.T) {
		for i, sid := range sids {
			resp := hostReq(t, hc, "POST", url, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			resp.Body.Close()
			if resp.StatusCode != http.StatusAccepted {
				t.Errorf("session %d: %s", i, resp.Status)
			}
			if m, err := links[i].Read(); err != nil || m.Method != "notifications/initialized" {
				t.Errorf("session %d read %s %v", i, m.Raw, err)
			}
		}
	})
}

// TestListenerStaleSession checks a full listener makes room by ending
// the session that has had no request open for longest, if that is long
// enough (a host that left without DELETE), and never one with a request
// open.
func TestListenerStaleSession(t *testing.T) {
	defer leaktest.Check(t)()
	l := listen(t)
	defer l.Close()
	l.staleAfter = 0 // every session without a request open is stale
	hc := boundedHTTP()
	defer hc.CloseIdleConnections()
	url := l.URL()
	sids := make([]string, MaxSessions)
	links := make([]Link, MaxSessions)
	for i := range MaxSessions {
		sids[i], links[i] = openSession(t, l, hc, url)
	}
	const left = 3 // the host that went away; every other keeps its GET stream open
	for i, sid := range sids {
		if i == left {
			continue
		}
		get := hostReq(t, hc, "GET", url, sid, "")
		defer get.Body.Close()
		if get.StatusCode != http.StatusOK {
			t.Fatalf("GET %d: %s", i, get.Status)
		}
	}

	newSid, newLink := openSession(t, l, hc, url)
	ended := make(chan error, 1)
	go func() {
		_, err := links[left].Read()
		ended <- err
	}()
	select {
	case err := <-ended:
		if err != io.EOF {
			t.Errorf("the stale session's Link read %v, want io.EOF", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stale session's Link did not end")
	}
	resp := hostReq(t, hc, "POST", url, sids[left], `{"jsonrpc":"2.0","method":"x"}`)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("the stale session's host got %s, want 404 (so that it starts anew)", resp.Status)
	}

	// The new session has a request open: no session is stale now.
	get := hostReq(t, hc, "GET", url, newSid, "")
	defer get.Body.Close()
	refusal(t, hostReq(t, hc, "POST", url, "", initialize), http.StatusServiceUnavailable)
	newLink.Close()
}
