package link

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// Listener serves the MCP Streamable HTTP transport to hosts on this
// machine that present its secret, and hands out one Link per host
// session. Hosts of revisions up to 2025-11-25 start a session with
// initialize and get an Mcp-Session-Id; hosts of 2026-07-28 have no
// sessions, so all their requests share one Link, the sessionless one.
// At most MaxSessions Links are open at once.
type Listener struct {
	ln      net.Listener
	srv     *http.Server
	log     *slog.Logger
	secret  string
	accepts chan *hostSession
	served  chan struct{} // closed when Serve has returned

	// staleAfter is how long a session must have had no request open
	// before a new one may take its place; a field for the tests.
	staleAfter time.Duration
	// maxSessions is MaxSessions, but in tests that run more hosts.
	maxSessions int

	once sync.Once
	done chan struct{}

	mu          sync.Mutex
	sessions    map[string]*hostSession
	sessionless *hostSession
}

// acceptBacklog is how many new sessions wait for Accept before their
// hosts' POSTs wait too.
const acceptBacklog = 16

// MaxSessions is how many host sessions a Listener keeps open at once,
// the sessionless Link included: each runs a server. One more is refused
// with 503 Service Unavailable unless a session has had no request open
// for staleAfter (a host that went away without ending its session),
// which is then ended to make room.
const MaxSessions = 8

// staleAfter is how long a session must have had no request open before
// a new session may take its place when the Listener is full. A host
// whose session is ended gets 404 on its next request and starts a new
// one.
const staleAfter = time.Minute

// retryAfter is the Retry-After, in seconds, of a 503 for a full Listener.
const retryAfter = "30"

// sessionlessVersion is the first revision without sessions.
const sessionlessVersion = "2026-07-28"

// Listen starts serving on addr, which must be a loopback address:
// 127.0.0.1, [::1] or localhost, with a port (0 picks one), to hosts that
// present secret (see NewSecret). ctx bounds only the setting up. log nil
// means slog.Default().
func Listen(ctx context.Context, addr, secret string, log *slog.Logger) (*Listener, error) {
	if err := checkListenAddr(addr); err != nil {
		return nil, err
	}
	if err := CheckSecret(secret); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.Default()
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	l := &Listener{
		ln: ln, log: log, secret: secret, staleAfter: staleAfter, maxSessions: MaxSessions,
		accepts:  make(chan *hostSession, acceptBacklog),
		served:   make(chan struct{}),
		done:     make(chan struct{}),
		sessions: make(map[string]*hostSession),
	}
	l.srv = &http.Server{
		Handler:           l,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	go func() {
		defer close(l.served)
		l.srv.Serve(ln)
	}()
	return l, nil
}

// Addr is the address the Listener serves on.
func (l *Listener) Addr() net.Addr { return l.ln.Addr() }

// URL is the address a host reaches the Listener at with the secret in
// the path: http://ADDR/SECRET/mcp.
func (l *Listener) URL() string { return "http://" + l.ln.Addr().String() + "/" + l.secret + "/mcp" }

// HeaderURL is the address a host reaches the Listener at when it sends
// the secret as "Authorization: Bearer SECRET" instead: http://ADDR/mcp.
func (l *Listener) HeaderURL() string { return "http://" + l.ln.Addr().String() + "/mcp" }

// Accept waits for the next host session and returns its Link. After
// Close it returns net.ErrClosed.
func (l *Listener) Accept() (Link, error) {
	select {
	case s := <-l.accepts:
		return s, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops serving and ends every session.
func (l *Listener) Close() error {
	l.once.Do(func() {
		close(l.done)
		l.mu.Lock()
		all := make([]*hostSession, 0, len(l.sessions)+1)
		for _, s := range l.sessions {
			all = append(all, s)
		}
		if l.sessionless != nil {
			all = append(all, l.sessionless)
		}
		l.sessions, l.sessionless = nil, nil
		l.mu.Unlock()
		for _, s := range all {
			s.end()
		}
		ctx, cancel := context.WithTimeout(context.Background(), deleteWait)
		defer cancel()
		if l.srv.Shutdown(ctx) != nil {
			l.srv.Close()
		}
		<-l.served
	})
	return nil
}

// ServeHTTP checks that the request comes from this machine and carries
// the secret, then serves the MCP endpoint.
func (l *Listener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !loopbackHostHeader(r.Host) {
		l.log.Warn("mcp request refused: Host is not loopback (DNS rebinding?)", "host", r.Host, "remote", r.RemoteAddr)
		writeError(w, http.StatusForbidden, nil, jsonrpc.CodeInvalidRequest, "Host header is not a loopback name")
		return
	}
	if o := r.Header.Get("Origin"); o != "" && !loopbackOrigin(o) {
		l.log.Warn("mcp request refused: Origin is not loopback", "origin", o, "remote", r.RemoteAddr)
		writeError(w, http.StatusForbidden, nil, jsonrpc.CodeInvalidRequest, "Origin is not a page on this machine")
		return
	}
	if !presents(r, l.secret) {
		// Neither the path nor the header is logged: either may hold a
		// secret, this one mistyped or another's.
		l.log.Warn("mcp request refused: no secret, or a wrong one", "method", r.Method, "remote", r.RemoteAddr, "user-agent", r.UserAgent())
		w.Header().Set("WWW-Authenticate", `Bearer realm="elicitdesk bridge"`)
		writeError(w, http.StatusUnauthorized, nil, jsonrpc.CodeInvalidRequest,
			"this bridge serves only hosts that present its secret: use the URL it printed when it started, or send the secret as Authorization: Bearer")
		return
	}
	switch r.Method {
	case http.MethodPost:
		l.servePost(w, r)
	case http.MethodGet, http.MethodDelete:
		sid := r.Header.Get(headerSession)
		if sid == "" {
			// Without a session there is neither a standalone stream nor
			// anything to end, as in revision 2026-07-28.
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, http.StatusMethodNotAllowed, nil, jsonrpc.CodeInvalidRequest, r.Method+" needs an Mcp-Session-Id")
			return
		}
		s := l.use(sid)
		if s == nil {
			writeError(w, http.StatusNotFound, nil, jsonrpc.CodeInvalidRequest, "no such session")
			return
		}
		defer s.leave()
		if r.Method == http.MethodDelete {
			s.Close()
			w.WriteHeader(http.StatusOK)
			return
		}
		if !acceptsEvents(r) {
			writeError(w, http.StatusNotAcceptable, nil, jsonrpc.CodeInvalidRequest, "GET needs Accept: text/event-stream")
			return
		}
		s.serveGet(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		writeError(w, http.StatusMethodNotAllowed, nil, jsonrpc.CodeInvalidRequest, "method not allowed")
	}
}

// datedVersion matches the protocol versions that are dates.
var datedVersion = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

func (l *Listener) servePost(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r.Body)
	var bad *BadMessage
	switch {
	case errors.As(err, &bad):
		writeError(w, http.StatusRequestEntityTooLarge, nil, jsonrpc.CodeInvalidRequest, bad.Error())
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, nil, jsonrpc.CodeParseError, "reading the request: "+err.Error())
		return
	}
	ms, errs := parseBody(body)
	if len(errs) > 0 {
		writeError(w, http.StatusBadRequest, nil, jsonrpc.CodeParseError, errs[0].Error())
		return
	}
	if len(ms) == 0 {
		writeError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, "an empty batch")
		return
	}
	var s *hostSession
	sid := r.Header.Get(headerSession)
	v := r.Header.Get(headerVersion)
	switch {
	case sid != "":
		if s = l.use(sid); s == nil {
			writeError(w, http.StatusNotFound, nil, jsonrpc.CodeInvalidRequest, "no such session; it may have ended")
			return
		}
	case hasInitialize(ms):
		s, err = l.newSession()
	case datedVersion.MatchString(v) && v < sessionlessVersion:
		writeError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, "Mcp-Session-Id header required after initialize")
		return
	default:
		s, err = l.sessionlessLink()
	}
	switch {
	case errors.Is(err, errFull):
		l.log.Warn("host session refused: the bridge is full", "max", l.maxSessions, "remote", r.RemoteAddr)
		w.Header().Set("Retry-After", retryAfter)
		writeError(w, http.StatusServiceUnavailable, nil, jsonrpc.CodeInvalidRequest, err.Error())
		return
	case err != nil:
		writeError(w, http.StatusServiceUnavailable, nil, jsonrpc.CodeInvalidRequest, err.Error())
		return
	}
	defer s.leave()
	if !l.offer(r.Context(), s) {
		writeError(w, http.StatusServiceUnavailable, nil, jsonrpc.CodeInvalidRequest, errShutdown.Error())
		return
	}
	s.servePost(w, r, ms, bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")))
}

var (
	errShutdown = errors.New("the bridge is shutting down")
	errFull     = fmt.Errorf("the bridge serves at most %d host sessions at once, and all are in use: end one (or restart the bridge) and try again", MaxSessions)
)

// hasInitialize reports whether ms holds an initialize request.
func hasInitialize(ms []Message) bool {
	for _, m := range ms {
		if m.IsRequest() && m.Method == "initialize" {
			return true
		}
	}
	return false
}

// use returns the session sid, entered for a request (see
// hostSession.enter), or nil if there is none. Entering under l.mu keeps
// the session from being taken for stale meanwhile.
func (l *Listener) use(sid string) *hostSession {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.sessions[sid]
	if s != nil {
		s.enter()
	}
	return s
}

// newSession registers a session under a new random id, entered for the
// request that starts it; errFull when there is no room, errShutdown
// once closed.
func (l *Listener) newSession() (*hostSession, error) {
	id := rand.Text()
	s := newHostSession(id, func() { l.remove(id) })
	l.mu.Lock()
	stale, err := l.makeRoom()
	if err == nil {
		l.sessions[id] = s
		s.enter()
	}
	l.mu.Unlock()
	l.endStale(stale)
	return s, err
}

// sessionlessLink returns the Link of the hosts without sessions, entered
// for a request; a new one, not yet accepted, if there was none.
func (l *Listener) sessionlessLink() (*hostSession, error) {
	l.mu.Lock()
	var stale *hostSession
	var err error
	if l.sessionless == nil || l.sessionless.isDone() {
		l.sessionless = nil
		if stale, err = l.makeRoom(); err == nil {
			var s *hostSession
			s = newHostSession("", func() {
				l.mu.Lock()
				defer l.mu.Unlock()
				if l.sessionless == s {
					l.sessionless = nil
				}
			})
			l.sessionless = s
		}
	}
	s := l.sessionless
	if err == nil {
		s.enter()
	}
	l.mu.Unlock()
	l.endStale(stale)
	return s, err
}

// makeRoom reports whether one more session fits: when the Listener is
// full, the session with no request open for longest, if that is at
// least staleAfter, gives up its place and is returned, to be ended
// outside the lock. l.mu is held.
func (l *Listener) makeRoom() (stale *hostSession, err error) {
	if l.sessions == nil {
		return nil, errShutdown
	}
	all := make([]*hostSession, 0, len(l.sessions)+1)
	for _, s := range l.sessions {
		all = append(all, s)
	}
	if l.sessionless != nil {
		all = append(all, l.sessionless)
	}
	if len(all) < l.maxSessions {
		return nil, nil
	}
	now := time.Now()
	var longest time.Duration
	for _, s := range all {
		if d, idle := s.idle(now); idle && d >= l.staleAfter && (stale == nil || d > longest) {
			stale, longest = s, d
		}
	}
	if stale == nil {
		return nil, errFull
	}
	if stale == l.sessionless {
		l.sessionless = nil
	} else {
		delete(l.sessions, stale.id)
	}
	return stale, nil
}

// endStale ends a session makeRoom took the place of, if any.
func (l *Listener) endStale(s *hostSession) {
	if s == nil {
		return
	}
	l.log.Info("ended a host session that had no request open, to make room for a new one", "max", l.maxSessions)
	s.Close()
}

// offer hands a new session to Accept, once; it reports false when the
// Listener closed or the host left first.
func (l *Listener) offer(ctx context.Context, s *hostSession) bool {
	if !s.claimOffer() {
		return s.waitOffered(ctx, l.done)
	}
	select {
	case l.accepts <- s:
		s.markOffered()
		return true
	case <-l.done:
	case <-ctx.Done():
	}
	s.Close()
	return false
}

func (l *Listener) remove(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.sessions, id)
}

// String describes the Listener for logs.
func (l *Listener) String() string { return fmt.Sprintf("mcp listener on http://%s", l.ln.Addr()) }
