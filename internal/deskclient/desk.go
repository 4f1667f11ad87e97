package deskclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers/bridge"
)

// appStartWait is how long the bridge waits for an app it started.
const appStartWait = 5 * time.Second

// NotRunning tells the person, on the bridge's stderr, which hosts show
// in their MCP logs, what to do when the app cannot be reached or started:
// a host's stripped environment has neither display nor bus.
const NotRunning = "Elicit Desk is not running: start it from your applications menu"

// Desk is the bridge's way to the person: the running app, reached
// over the private endpoint when an elicitation needs it and started
// when it does not run. It lists the bridge's sessions in the app while
// connected, again after the app restarts.
type Desk struct {
	path     string                          // the endpoint
	activate func(ctx context.Context) error // has the session bus start the app; nil for a forwarded endpoint
	app      []string                        // the command that starts the app itself
	missing  func(error) string              // for a forwarded endpoint: what to tell when nothing answers, and why not
	log      *slog.Logger
	tell     func(line string) // tells the person, on the bridge's stderr
	told     sync.Once         // that the app is not running, once

	dialling sync.Mutex // one connect at a time: one app started

	mu       sync.Mutex
	client   *endpoint.Client
	sessions map[string]attached // by session id
}

// attached is a session listed in the app until its ctx ends.
type attached struct {
	ctx    context.Context
	info   endpoint.Bridged
	cancel context.CancelFunc // ends its listing on the current client
}

func New(path string, activate func(context.Context) error, app []string, log *slog.Logger, tell func(string)) *Desk {
	return &Desk{path: path, activate: activate, app: app, log: log, tell: tell, sessions: map[string]attached{}}
}

// NewForwarded returns a Desk for an endpoint at path forwarded from the
// person's desktop to this machine (a dev box over SSH, a container): it
// never starts an app. When nothing answers there (no socket, or a
// forward whose other end hangs up before the handshake: the desktop's app
// is not running or does not serve this machine) an elicitation is one no
// window could show, and tell gets what missing says of the reason, once:
// what the person can do about it.
func NewForwarded(path string, missing func(error) string, log *slog.Logger, tell func(string)) *Desk {
	return &Desk{path: path, missing: missing, log: log, tell: tell, sessions: map[string]attached{}}
}

func (d *Desk) Ask(ctx context.Context, q endpoint.Question) (json.RawMessage, error) {
	// A connection found broken before the question was shown (the app
	// quit since the last one) is dropped and the app reached again, once.
	for tries := 0; ; tries++ {
		c, err := d.connect(ctx, true)
		if err != nil {
			return nil, err
		}
		sent := time.Now()
		answer, err := c.Elicit(ctx, q)
		if !errors.Is(err, endpoint.ErrDisconnected) || ctx.Err() != nil {
			return answer, err
		}
		d.drop(c)
		if tries > 0 || time.Since(sent) > time.Second {
			return nil, err // the app went away while the person saw the question
		}
	}
}

// Unshown hands the app an entry for its history, over the connection
// the bridge has or a new one; it never starts the app. The error says
// the app did not take it.
func (d *Desk) Unshown(ctx context.Context, u endpoint.Unshown) error {
	c, err := d.connect(ctx, false)
	if err != nil {
		return err
	}
	err = c.Unshown(ctx, u)
	if errors.Is(err, endpoint.ErrDisconnected) {
		d.drop(c) // the app quit: the next question starts it again
	}
	return err
}

func (d *Desk) Complete(x endpoint.Completion) {
	d.mu.Lock()
	c := d.client
	d.mu.Unlock()
	if c != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		c.Complete(ctx, x)
	}
}

func (d *Desk) Attach(ctx context.Context, s endpoint.Bridged) {
	d.mu.Lock()
	if old, ok := d.sessions[s.ID]; ok && old.cancel != nil {
		old.cancel()
	}
	d.sessions[s.ID] = attached{ctx: ctx, info: s}
	c := d.client
	if c != nil {
		d.list(c, s.ID)
	}
	d.mu.Unlock()
	context.AfterFunc(ctx, func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		if a, ok := d.sessions[s.ID]; ok && a.ctx == ctx {
			delete(d.sessions, s.ID)
		}
	})
	if c == nil {
		go d.connect(ctx, false) // an app already running lists the session at once
	}
}

// list shows session id in the app of c until the session or its
// listing ends; d.mu is held.
func (d *Desk) list(c *endpoint.Client, id string) {
	a := d.sessions[id]
	ctx, cancel := context.WithCancel(a.ctx)
	a.cancel = cancel
	d.sessions[id] = a
	go func() {
		if err := c.Bridge(ctx, a.info); errors.Is(err, endpoint.ErrDisconnected) {
			d.drop(c) // the app quit: the next question starts it again
		}
	}()
}

// connect returns the client of the running app, dialling it if need be.
// With start, an app that does not run is started, if a window can be
// shown at all, and waited for. The error wraps bridge.ErrNoWindow when
// there is no display; any other reason the app cannot be reached is
// the server's error, never a hand-over to the host.
func (d *Desk) connect(ctx context.Context, start bool) (*endpoint.Client, error) {
	d.dialling.Lock()
	defer d.dialling.Unlock()
	d.mu.Lock()
	c := d.client
	d.mu.Unlock()
	if c != nil {
		return c, nil
	}
	c, err := endpoint.Dial(ctx, d.path)
	forwarded := d.activate == nil
	if forwarded && start && (errors.Is(err, endpoint.ErrNotRunning) || errors.Is(err, endpoint.ErrDisconnected)) {
		d.told.Do(func() { d.tell(d.missing(err)) })
		return nil, fmt.Errorf("%w: nothing answers at %s, where the desktop's Elicit Desk is to be forwarded", bridge.ErrNoWindow, d.path)
	}
	if errors.Is(err, endpoint.ErrNotRunning) && start {
		if c, err = d.start(ctx); err != nil && ctx.Err() == nil {
			d.log.Debug("cannot start Elicit Desk", "err", err)
			d.told.Do(func() { d.tell(NotRunning) })
		}
	}
	if errors.Is(err, errNoDisplay) {
		return nil, fmt.Errorf("%w: %v", bridge.ErrNoWindow, err)
	}
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.client = c
	for id := range d.sessions {
		d.list(c, id)
	}
	return c, nil
}

// drop forgets a client whose app went away.
func (d *Desk) drop(c *endpoint.Client) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.client == c {
		d.client = nil
		c.Close()
	}
}

// start starts the app and waits until it answers on the endpoint. The
// session bus starts it when it can (D-Bus activation: the app then runs
// with the session's environment, display and bus, not the host's, and is
// no child of the host, which may end its server's children); else the
// bridge does, detached, when there is a display to show it on.
func (d *Desk) start(ctx context.Context) (*endpoint.Client, error) {
	ctx, cancel := context.WithTimeout(ctx, appStartWait)
	defer cancel()
	err := d.activate(ctx)
	if err == nil {
		d.log.Info("the session bus started Elicit Desk")
		return d.await(ctx, nil)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("the session bus did not start Elicit Desk within %s (%v)", appStartWait, err)
	}
	d.log.Debug("the session bus cannot start Elicit Desk", "err", err)
	// An app that found another one running hands over and exits, which
	// the bus reports as a failed start: the other one answers.
	if c, derr := endpoint.Dial(ctx, d.path); derr == nil {
		return c, nil
	}
	if !CanShowWindows() {
		return nil, fmt.Errorf("the session bus cannot start it (%v), and %w", err, errNoDisplay)
	}
	return d.spawn(ctx)
}

// spawn starts the app itself, as nobody's child (startDetached) so that
// it outlives the host and the bridge, and waits until it answers on the
// endpoint.
func (d *Desk) spawn(ctx context.Context) (*endpoint.Client, error) {
	pid, running, err := startDetached(d.app)
	if err != nil {
		return nil, fmt.Errorf("cannot start Elicit Desk: %w", err)
	}
	d.log.Info("started Elicit Desk", "pid", pid)
	return d.await(ctx, running)
}

// await waits until the app answers on the endpoint, until ctx ends or
// the app exits (running, if not nil, says whether it still runs).
func (d *Desk) await(ctx context.Context, running func() bool) (*endpoint.Client, error) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		c, err := endpoint.Dial(ctx, d.path)
		if !errors.Is(err, endpoint.ErrNotRunning) {
			return c, err
		}
		if running != nil && !running() {
			// Another bridge's app may have won the race: it still answers.
			if c, derr := endpoint.Dial(ctx, d.path); derr == nil {
				return c, nil
			}
			return nil, errors.New("the Elicit Desk it started exited at once")
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("the Elicit Desk it started did not answer within %s", appStartWait)
		case <-tick.C:
		}
	}
}

// errNoDisplay is why no window can be shown at all.
var errNoDisplay = errors.New("there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)")

// CanShowWindows reports whether a window could appear: on Linux and the
// BSDs only with a display to show it on.
func CanShowWindows() bool {
	switch runtime.GOOS {
	case "darwin", "windows":
		return true
	}
	return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
}
