package servers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// State is where a server's connection stands.
type State string

const (
	StateConnecting State = "connecting"
	StateReady      State = "ready"
	StateFailed     State = "failed" // Status.Err says why; a reconnect is due
	// StateNeedsSignIn is a remote server that wants the person to sign
	// in (Manager.SignIn): no reconnect is due, as none could help.
	StateNeedsSignIn State = "needs sign-in"
	StateStopped     State = "stopped"
	StateDisabled    State = "disabled"
)

// Status is one server's connection as the UI shows it.
type Status struct {
	Name  string
	State State
	Err   error     // why it failed; while connecting again after a failure, why that failed
	Since time.Time // when State began
	// FailedSince is when the server first failed since it was last ready
	// (or configured): retries do not move it. Zero while all is well.
	FailedSince time.Time
	// RetryAt is when the next attempt to connect is due, while one is
	// waiting; Manager.Retry brings it forward.
	RetryAt  time.Time
	Identity Identity
	Protocol string // the negotiated revision, once ready
	// SignedIn is whether a sign-in to the remote server is stored, so
	// that Manager.SignOut has something to forget.
	SignedIn bool
	Stderr   string // the last 64 KB a stdio server wrote there
}

// Backoff is how long to wait before reconnecting: Min after the first
// failure, doubling up to Max while failures continue.
type Backoff struct {
	Min, Max time.Duration
}

// DefaultBackoff waits from one second up to a minute.
var DefaultBackoff = Backoff{Min: time.Second, Max: time.Minute}

// dialFunc connects to one server; Dial in the app, a stand-in in tests.
type dialFunc func(ctx context.Context, cfg config.Server, router *Router, log *slog.Logger) (*Conn, error)

// Manager keeps one connection to each enabled server of the configuration,
// reconnecting with backoff when a server dies or its session ends, and
// follows changes to the configuration.
type Manager struct {
	router    *Router
	log       *slog.Logger
	backoff   Backoff
	pingEvery time.Duration // how often a live connection is checked
	dial      dialFunc
	now       func() time.Time // the clock of Status times
	feed      *statusFeed
	signer    *signin.Signer                             // nil: remote servers get no sign-in
	tap       func(server string, l link.Link) link.Link // nil: no record of the messages

	// applying is held through Apply, so that one configuration is
	// applied at a time; mu is never held while a server stops.
	applying sync.Mutex

	mu     sync.Mutex
	sups   map[string]*supervisor
	closed bool // Close has begun: Apply starts nothing
}

// NewManager returns a manager routing every elicitation to router. onStatus,
// if not nil, is called on each status change, in order, one call at a time
// and holding no lock of the manager's, so it may call the manager.
func NewManager(router *Router, log *slog.Logger, onStatus func(Status)) *Manager {
	m := &Manager{router: router, log: log, backoff: DefaultBackoff, pingEvery: 30 * time.Second, now: time.Now, feed: newStatusFeed(onStatus), sups: map[string]*supervisor{}}
	m.dial = m.dialVia
	return m
}

// Tap has every message of every connection pass through tap, with its
// server's name (the core's traffic record); call it before the first
// Apply.
func (m *Manager) Tap(tap func(server string, l link.Link) link.Link) {
	m.tap = tap
}

// dialVia dials cfg's server with the sign-in and the tap.
func (m *Manager) dialVia(ctx context.Context, cfg config.Server, router *Router, log *slog.Logger) (*Conn, error) {
	via := Via{HTTP: m.signInWrap(cfg)}
	if m.tap != nil {
		via.Link = func(l link.Link) link.Link { return m.tap(cfg.Name, l) }
	}
	return DialWith(ctx, cfg, router, log, via)
}

// Apply brings the connections in line with cfg: new and re-enabled
// servers connect, removed and disabled ones stop, changed ones restart.
// Bad entries show as failed without touching the others.
//
// Stopping a server can take seconds (a stdio server has a grace period
// after each step), and Statuses, which the UI goroutine calls, takes mu:
// so, as Close does, Apply picks under mu what to stop, stops it without
// mu, then starts under mu what replaces it.
func (m *Manager) Apply(cfg *config.File) {
	m.applying.Lock()
	defer m.applying.Unlock()
	m.mu.Lock()
	if m.closed { // a config change that raced with Close
		m.mu.Unlock()
		return
	}
	seen := map[string]bool{}
	var stop []*supervisor
	var start []config.Server
	for _, sc := range cfg.Servers {
		if seen[sc.Name] {
			continue // a duplicate entry: its Err says so, the first one runs
		}
		seen[sc.Name] = true
		m.router.SetLimits(sc.Name, DefaultLimits.For(sc))
		if s, ok := m.sups[sc.Name]; ok {
			if sameConfig(s.cfg, sc) {
				continue
			}
			stop = append(stop, s)
		}
		start = append(start, sc)
	}
	for name, s := range m.sups {
		if !seen[name] {
			stop = append(stop, s)
		}
	}
	m.mu.Unlock()

	// Stopped ones stay listed, as stopped, until they are down: Close
	// then waits for them too, and a restarted server's new connection
	// neither runs beside its old one nor has its status followed by the
	// old one's last.
	for _, s := range stop {
		s.stop()
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed { // Close stopped the rest meanwhile
		return
	}
	for _, s := range stop {
		delete(m.sups, s.cfg.Name)
	}
	for _, sc := range start {
		m.sups[sc.Name] = m.start(sc)
	}
	if len(stop) > 0 {
		m.feed.wake() // the list changed, though no status did
	}
}

// sameConfig reports whether two entries would connect the same way. It
// names every field of config.Server it compares, so that a new field is a
// decision (TestSameConfigConsidersEveryField fails until it is made);
// Warnings and the bytes as read change nothing about connecting.
func sameConfig(a, b config.Server) bool {
	return a.Name == b.Name &&
		a.Command == b.Command && slices.Equal(a.Args, b.Args) && maps.Equal(a.Env, b.Env) && a.Cwd == b.Cwd &&
		a.URL == b.URL && maps.Equal(a.Headers, b.Headers) &&
		a.Transport == b.Transport && a.Disabled == b.Disabled && a.ProtocolVersion == b.ProtocolVersion &&
		a.MaxWaiting == b.MaxWaiting && a.MaxPerMinute == b.MaxPerMinute &&
		fmt.Sprint(a.Err) == fmt.Sprint(b.Err)
}

// Statuses returns every server's status in name order.
func (m *Manager) Statuses() []Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Status
	for _, s := range m.sups {
		out = append(out, s.status())
	}
	slices.SortFunc(out, func(a, b Status) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// Conn returns the live connection to a server, if it is ready.
func (m *Manager) Conn(name string) (*Conn, bool) {
	m.mu.Lock()
	s, ok := m.sups[name]
	m.mu.Unlock()
	if !ok {
		return nil, false
	}
	return s.live()
}

// Retry makes a server that is waiting to reconnect try at once, and
// reports whether it was waiting. It does not block.
func (m *Manager) Retry(name string) bool {
	m.mu.Lock()
	s, ok := m.sups[name]
	m.mu.Unlock()
	return ok && s.retry()
}

// Restart connects to a server again at once, ending the connection it
// has (a stdio server's process with it): its author changed its code.
// It reports whether the server is one of the manager's. It does not block.
func (m *Manager) Restart(name string) bool {
	m.mu.Lock()
	s, ok := m.sups[name]
	m.mu.Unlock()
	if ok {
		s.reconnect()
	}
	return ok
}

// WaitReady returns the live connection to server name, waiting until it
// is ready or ctx ends: a server may still be connecting, as when the app
// has just started, or waiting to reconnect.
func (m *Manager) WaitReady(ctx context.Context, name string) (*Conn, error) {
	for {
		changed := m.feed.next() // before looking, so no change is missed
		if c, ok := m.Conn(name); ok {
			return c, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, fmt.Errorf("server %q is not ready: %w", name, context.Cause(ctx))
		}
	}
}

// Watch applies the configuration at path now and after every change to
// it, until ctx ends; read, if not nil, hears of each reading once it is
// applied, or why it could not be, a watch that failed on the way
// included. A file that cannot be read is logged and leaves the
// connections as they are: none, when it is the first. The error is
// Watch's only when the file cannot be watched at all.
func (m *Manager) Watch(ctx context.Context, path string, read func(err error)) error {
	apply := func(cfg *config.File, err error) {
		if err != nil {
			m.log.Error("servers.json not applied", "err", err)
		} else {
			m.Apply(cfg)
		}
		if read != nil {
			read(err)
		}
	}
	apply(config.Load(path))
	return config.Watch(ctx, path, apply)
}

// Close stops every connection and waits until they are down and every
// status change has been passed on.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	sups := m.sups
	m.sups = map[string]*supervisor{}
	m.mu.Unlock()
	for _, s := range sups {
		s.stop()
	}
	m.feed.drain()
}

// supervisor keeps one server connected.
type supervisor struct {
	cfg    config.Server
	m      *Manager
	cancel context.CancelFunc
	done   chan struct{}
	// wake ends a wait to reconnect early. It holds a token only while
	// Status.RetryAt is set: set empties it, under mu.
	wake chan struct{}
	// redial makes the supervisor connect again at once: the server's
	// sign-in changed. A token left while a dial is under way counts
	// after it, so a sign-in that ends meanwhile is not lost.
	redial chan struct{}

	mu   sync.Mutex
	st   Status
	conn *Conn
	// before is what the servers that ran before conn wrote to stderr,
	// and since when conn runs: a server that crashed and was started
	// again keeps its last words on show.
	before string
	since  time.Time
}

func (m *Manager) start(cfg config.Server) *supervisor {
	ctx, cancel := context.WithCancel(context.Background())
	s := &supervisor{cfg: cfg, m: m, cancel: cancel, done: make(chan struct{}), wake: make(chan struct{}, 1), redial: make(chan struct{}, 1)}
	s.st = Status{Name: cfg.Name, Identity: Identity{Name: cfg.Name, Target: cfg.Target()}}
	switch {
	case cfg.Err != nil:
		s.set(StateFailed, cfg.Err, nil) // no retry: the file must change
		close(s.done)
	case cfg.Disabled:
		s.set(StateDisabled, nil, nil)
		close(s.done)
	default:
		go s.run(ctx)
	}
	return s
}

// run connects, waits for the connection to be lost, and reconnects after
// a backoff, until stopped.
func (s *supervisor) run(ctx context.Context) {
	defer close(s.done)
	wait := s.m.backoff.Min
	for {
		s.set(StateConnecting, nil, nil)
		select {
		case <-s.redial: // this dial has the sign-in as it is now
		default:
		}
		conn, err := s.m.dial(ctx, s.cfg, s.m.router, s.m.log)
		if err == nil {
			s.set(StateReady, nil, conn)
			wait = s.m.backoff.Min
			err = s.watch(ctx, conn)
		}
		// The state first: closing can take seconds, and a closing
		// connection must not be handed out as ready.
		needSignIn := errors.Is(err, signin.ErrSignInNeeded)
		switch {
		case ctx.Err() != nil:
			s.set(StateStopped, nil, nil)
		case errors.Is(err, errRedial):
			s.set(StateConnecting, nil, nil)
		case needSignIn:
			s.m.log.Info("server needs a sign-in", "server", s.cfg.Name, "err", err)
			s.set(StateNeedsSignIn, err, nil)
		default:
			s.m.log.Warn("server connection failed", "server", s.cfg.Name, "err", err, "retry_in", wait)
			s.fail(err, wait)
		}
		if conn != nil {
			conn.Close()
		}
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, errRedial) {
			continue
		}
		if !s.await(ctx, wait, needSignIn) {
			s.set(StateStopped, nil, nil)
			return
		}
		wait = min(2*wait, s.m.backoff.Max)
		if needSignIn {
			wait = s.m.backoff.Min // a sign-in, not a failure, ended the wait
		}
	}
}

// await waits until the next attempt is due after wait, or Retry or a
// change of sign-in wakes it, and reports whether ctx is still going. A
// server that needs a sign-in waits for one alone: trying again cannot help.
func (s *supervisor) await(ctx context.Context, wait time.Duration, forSignIn bool) bool {
	var due <-chan time.Time
	if !forSignIn {
		t := time.NewTimer(wait)
		defer t.Stop()
		due = t.C
	}
	select {
	case <-due:
	case <-s.wake:
	case <-s.redial:
	case <-ctx.Done():
		return false
	}
	return true
}

// watch waits until the connection is lost or ctx ends. It pings a
// remote server now and then: one that died, or whose HTTP session ended,
// shows no other sign until the next request. A stdio server's end shows
// as its streams' end, so it is not pinged: ten idle servers would
// otherwise wake the core several times a second.
func (s *supervisor) watch(ctx context.Context, conn *Conn) error {
	var tick <-chan time.Time
	if s.cfg.Transport != config.TransportStdio {
		ticker := time.NewTicker(s.m.pingEvery)
		defer ticker.Stop()
		tick = ticker.C
	}
	failed := 0
	for {
		select {
		case <-conn.Lost():
			return conn.Err()
		case <-ctx.Done():
			return nil
		case <-s.redial:
			return errRedial
		case <-tick:
			pctx, cancel := context.WithTimeout(ctx, s.m.pingEvery)
			err := conn.Ping(pctx)
			cancel()
			if err == nil {
				failed = 0
				continue
			}
			if errors.Is(err, signin.ErrSignInNeeded) {
				return err // the first says why; another ping cannot help
			}
			if failed++; failed == 2 && ctx.Err() == nil {
				return fmt.Errorf("the server stopped answering: %w", err)
			}
		}
	}
}

// set records a change of state; a failure's time is kept until the
// server is ready or stopped.
func (s *supervisor) set(state State, err error, conn *Conn) {
	s.update(state, err, conn, time.Time{})
}

// fail records a failure and that the next attempt is due in wait.
func (s *supervisor) fail(err error, wait time.Duration) {
	s.update(StateFailed, err, nil, s.m.now().Add(wait))
}

func (s *supervisor) update(state State, err error, conn *Conn, retryAt time.Time) {
	// The keyring is read once a connection stands, not under the lock,
	// and never on the way to Stopped: a locked keyring may ask the person
	// to unlock it, which must not hold up Close.
	var signedIn bool
	if state == StateReady {
		signedIn = s.m.signedIn(s.cfg)
	}
	s.mu.Lock()
	switch state {
	case StateReady, StateNeedsSignIn, StateStopped:
		s.st.SignedIn = signedIn
	} // else as it was: a failure or a reconnect does not forget a sign-in
	now := s.m.now()
	if s.conn != nil && conn != s.conn { // the server ended: keep what it said
		s.before = s.stderr()
		s.st.Stderr = s.before
	}
	var start *StartError
	if errors.As(err, &start) { // what the server that did not start said
		s.before = afterEarlier(s.before, start.Stderr, now)
		s.st.Stderr = s.before
	}
	if conn != nil && conn != s.conn {
		s.since = now
	}
	s.conn = conn
	if state == StateConnecting && err == nil && !s.st.FailedSince.IsZero() {
		err = s.st.Err // trying again: the last failure still says why it is down
	}
	s.st.State, s.st.Err, s.st.Since, s.st.RetryAt = state, err, now, retryAt
	switch {
	case state == StateFailed && s.st.FailedSince.IsZero():
		s.st.FailedSince = now
	case state != StateFailed && state != StateConnecting:
		s.st.FailedSince = time.Time{}
	}
	select {
	case <-s.wake: // a Retry of a wait that is over
	default:
	}
	if conn != nil {
		s.st.Identity, s.st.Protocol = conn.Identity(), conn.ProtocolVersion()
	}
	st := s.st
	s.m.feed.push(st) // under s.mu, so that pushes keep the order of changes
	s.mu.Unlock()
}

// retry ends the wait to reconnect, if the supervisor is waiting.
func (s *supervisor) retry() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.RetryAt.IsZero() {
		return false
	}
	select {
	case s.wake <- struct{}{}:
	default: // already woken
	}
	return true
}

func (s *supervisor) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	if s.conn != nil {
		st.Stderr = s.stderr()
	}
	return st
}

// stderr is what the server and those before it wrote to stderr; s.mu
// is held and s.conn set.
func (s *supervisor) stderr() string { return afterEarlier(s.before, s.conn.Stderr(), s.since) }

// afterEarlier is a server's stderr, latest, after what the servers
// before it wrote (earlier), with a line saying when it started; the last
// stderrTail bytes of it.
func afterEarlier(earlier, latest string, at time.Time) string {
	if earlier == "" {
		return latest
	}
	all := strings.TrimSuffix(earlier, "\n") + "\n── started again at " + at.Format(time.TimeOnly) + " ──\n" + latest
	if len(all) > stderrTail {
		all = all[len(all)-stderrTail:] // as the tail of one server's is cut
	}
	return all
}

func (s *supervisor) live() (*Conn, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn, s.conn != nil
}

// stop ends the supervisor and waits for its connection to close.
func (s *supervisor) stop() {
	s.cancel()
	<-s.done
}
