// Package core is Elicit Desk's resident half, which runs from login all
// day without Fyne or a GL context: it keeps the connections of
// servers.json, routes their elicitations and the bridged sessions' through
// one servers.Router with its limits, is the History's one writer, and
// answers the public endpoint (scripts, bridges).
//
// Every request is the core's alone until it is answered: its order,
// whether it has a window, its notification, the check of its answer. The
// windows' process (package app), which the core starts only while a
// window is needed, shows what the core tells it (Events) and gives the
// person's answers back (Attach, Answer, …): in process for tests, over
// the private connection the core started it with otherwise (Remote,
// ServeWindows). Windows that crash or lose their display lose nothing:
// the next are told to open every request that had a window.
package core

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/gate"
	"github.com/elicitdesk/elicitdesk/internal/desktop/autostart"
	"github.com/elicitdesk/elicitdesk/internal/desktop/tray"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// Options say where the core keeps its files.
type Options struct {
	ConfigPath  string        // servers.json
	HistoryPath string        // history.db
	Demo        config.Server // the entry a first start writes to servers.json
	Log         *slog.Logger
	// Signer signs in to remote servers that ask for it; nil: they fail
	// as any refused connection does.
	Signer *signin.Signer
	// History is how long and how much the history keeps, as the person
	// chose in the Settings window.
	History HistoryLimits
	// Background: a bridge started the core for a request, not the
	// person; the Welcome of a first start waits until no request is
	// left.
	Background bool
	// Notifier shows the desktop's notifications: requests that arrive
	// unseen, a server that fell; nil shows none, unless NotifyInWindows.
	Notifier Notifier
	// NotifyInWindows: without a Notifier, the windows show the
	// notifications (macOS and Windows, where the core has none).
	NotifyInWindows bool
	// NoNotifications says, for Settings, why no notification can show
	// when there is no Notifier ("no notification server runs on this
	// desktop").
	NoNotifications string
	// StartUI starts the windows' process when a window is needed; nil
	// starts none (a test attaches its own UI).
	StartUI StartUI
	// Windows are how request windows open, as the person chose in the
	// Settings window.
	Windows WindowPrefs
	// Traffic is what the traffic record keeps beside messages' facts,
	// as the person chose in the Settings window; CapturePath is the file
	// where it keeps their bodies ("": none is kept).
	Traffic     TrafficPrefs
	CapturePath string
}

// WindowPrefs are the person's choices of how request windows open.
type WindowPrefs struct {
	Max    int  `json:"max"`    // request windows open at once; 0: DefaultMaxWindows
	Notify bool `json:"notify"` // a notification when requests arrive unseen
}

// DefaultMaxWindows is how many request windows open at once unless the
// person chose otherwise.
const DefaultMaxWindows = 3

// HistoryLimits are the history's retention and size cap, within
// history.Limits' bounds.
type HistoryLimits = history.Limits

// Core is the running core.
type Core struct {
	ctx     context.Context // ends at Close
	cancel  context.CancelFunc
	opts    Options
	log     *slog.Logger
	router  *servers.Router
	manager *servers.Manager
	bridges *servers.Bridges
	traffic *traffic.Record // what passed on the connections: their facts
	writes  gate.Gate       // history writes: shut by Close, which waits for them
	// answering is held, shared, while an answer is sent and recorded.
	answering sync.RWMutex
	// refreshing orders the tray's refreshes, listing the bridged
	// sessions' lists told to the UI.
	refreshing, listing sync.Mutex
	opened              chan struct{}
	history             *history.Store // nil when it could not be opened; set before opened closes
	notice              string         // what opening the history had to say, for the first UI

	arrivals arrivals // the requests told of in notifications
	quitting atomic.Bool

	mu      sync.Mutex
	limits  HistoryLimits
	pending pending    // the requests waiting for the person
	feed    feed       // what the attached UI is told
	tray    *tray.Tray // nil until Tray
	login   autostart.Entry
	later   []Show // windows the core asks for once no request waits
	downs   downNotices
	// starting: superviseUI runs, starting UI processes while one is
	// wanted.
	starting bool
	// ahead: a windows' process is wanted before any request (startAhead);
	// the next start takes it.
	ahead bool
	// uiBackoff is how long after the last UI process ended the next may
	// start, uiNext when: see superviseUI.
	uiBackoff time.Duration
	uiNext    time.Time
	attaches  int // UIs attached so far
	// calling holds, by server, the tool calls the person made from the
	// windows that are under way, each one's question not yet asked
	// (personCalls).
	calling map[string][]*bool
	now     func() time.Time
	// capture keeps message bodies, once the person first switched it on;
	// stopCapture ends it.
	capture       *traffic.Capture
	stopCapture   context.CancelFunc
	scope         traffic.Scope               // whose messages capture keeps
	forwards      map[string]*endpoint.Server // the machines served, by name (Forward)
	captureTells  map[int]func()              // wake the bridges' tellers at a change of scope
	captureTellsN int                         // the tellers registered so far
}

// New prepares the core; Start connects the servers.
func New(ctx context.Context, opts Options) *Core {
	ctx, cancel := context.WithCancel(ctx)
	c := &Core{ctx: ctx, cancel: cancel, opts: opts, log: opts.Log, limits: opts.History, now: time.Now,
		opened: make(chan struct{})}
	c.pending.max = cmp.Or(opts.Windows.Max, DefaultMaxWindows)
	c.arrivals.notify = opts.Windows.Notify
	if c.opts.Notifier == nil && opts.NotifyInWindows {
		c.opts.Notifier = windowsNotifier{c}
	}
	c.router = servers.NewRouter(servers.DefaultLimits, c.log)
	c.router.OnRefused(func(x servers.Refusal) { c.record(refusalEntry(x)) })
	c.router.OnAsked(func(e *servers.Elicitation) {
		if c.ctx.Err() == nil { // once closed, a request waits until its server gives up
			c.wait(e, c.personCalls(e.Server))
		}
	})
	c.manager = servers.NewManager(c.router, c.log, func(s servers.Status) {
		c.log.Info("server", "name", s.Name, "state", s.State, "err", s.Err)
		statuses := c.manager.Statuses()
		c.feed.push(event{statuses: &statuses})
		c.refreshTray()
		c.noticeDown(s)
	})
	if opts.Signer != nil {
		c.manager.UseSigner(opts.Signer)
	}
	c.traffic = traffic.New(traffic.DefaultSize)
	c.manager.Tap(c.traffic.Tap)
	c.SetTrafficPrefs(opts.Traffic) // refused ones are logged: the bodies are not kept

	c.bridges = servers.NewBridges(func() {
		// Read and pushed under one lock: an older list is never told
		// after a newer one.
		c.listing.Lock()
		defer c.listing.Unlock()
		list := c.bridges.List()
		c.feed.push(event{bridges: &list})
	})
	return c
}

// Start opens the history and connects every configured server. A first
// start, with no servers.json yet, shows the Welcome window; one whose
// servers.json cannot be read, the Servers window, which says why.
func (c *Core) Start() error {
	_, statErr := os.Stat(c.opts.ConfigPath)
	missing := errors.Is(statErr, fs.ErrNotExist)
	if missing {
		if _, err := config.Ensure(c.opts.ConfigPath, c.opts.Demo); err != nil {
			return err
		}
	}
	c.openHistory()
	first := true // Watch reads once before it returns, then on a goroutine of its own
	if err := c.manager.Watch(c.ctx, c.opts.ConfigPath, func(err error) {
		c.configRead(err, first)
		first = false
	}); err != nil {
		return err
	}
	go c.daily()
	c.forwardListed()
	if missing {
		c.showOwn(Show{Window: WindowWelcome, Own: true})
	}
	return nil
}

// showOwn shows a window the core asks for by itself at its start: at
// once, or, started in the background, once the bridge's request that
// started it has ended.
func (c *Core) showOwn(s Show) {
	if !c.opts.Background {
		c.Show(s)
		return
	}
	c.mu.Lock()
	c.later = append(c.later, s)
	c.mu.Unlock()
}

// configRead follows each reading of servers.json: the Servers window
// reads the file again, to show what it says or why it cannot be read.
// When the first cannot, no server connects until the file is mended, so
// the window shows by itself, as it does without a tray.
func (c *Core) configRead(err error, first bool) {
	statuses := c.manager.Statuses()
	c.feed.push(event{statuses: &statuses})
	if err != nil && first {
		c.showOwn(Show{Window: WindowServers, Own: true})
	}
}

// Router routes every request the core asks; tests ask through it as a
// server would.
func (c *Core) Router() *servers.Router { return c.router }

// Flush waits until every history entry handed over so far is written,
// the answers being sent included.
func (c *Core) Flush() {
	c.answering.Lock() // no answer is being sent and recorded
	defer c.answering.Unlock()
	c.writes.Wait()
}

// Close answers nothing more, stops every server and finishes writing the
// history.
func (c *Core) Close() {
	c.cancel()
	c.closeForwards()
	c.closeNotices()
	c.manager.Close()
	c.closeCapture()
	c.writes.Close()
	if c.history != nil {
		c.history.Close()
	}
}

// Done is closed when the core quits.
func (c *Core) Done() <-chan struct{} { return c.ctx.Done() }

// Quit is QuitFor the person's choice of Quit, in a window or the tray.
func (c *Core) Quit() { c.QuitFor("the person chose Quit") }

// QuitFor answers every waiting request “cancel”, noting in the history
// that the app quit, tells the UI to close, and ends the core's context;
// the log says why, for whoever reads it to learn why the app ended.
func (c *Core) QuitFor(why string) {
	c.log.Info("quitting", "why", why)
	c.quitting.Store(true) // no windows open for the answers below
	for _, w := range c.pending.all() {
		if _, _, ok := c.pending.take(w.ID); ok {
			c.answer(w, nil, forms.Result{Action: forms.Cancel}, history.AppQuit)
		}
	}
	c.feed.push(event{quit: true})
	c.cancel()
}

// Show asks the windows for a window, starting their process if none
// runs. The core resolves a request's window (WindowRequest, and
// WindowFront while requests wait) into Open, past the window limit;
// WindowFront with none waiting is the windows' to pick, as they know
// what shows. A window the core asks for by itself (Own) waits until no
// request is left, so that it covers none.
func (c *Core) Show(s Show) {
	defer c.needUI()
	switch s.Window {
	case WindowFront, WindowRequest:
		if w, ok := c.pending.pick(s.Request); ok {
			c.open(w, ByPerson)
			c.countChanged() // it has a window now
			return
		}
		if s.Window == WindowRequest {
			return // it ended meanwhile
		}
	}
	if s.Own && len(c.pending.all()) > 0 {
		c.mu.Lock()
		c.later = append(c.later, s)
		c.mu.Unlock()
		return
	}
	c.feed.push(event{show: &s})
}

// Leave lets the windows attached in the core's own process go, as
// ui/leave does a windows' process (see Remote.Leave).
func (c *Core) Leave(_ context.Context, taken int) bool { return c.feed.letGo(nil, taken) }

// Statuses returns where each configured server's connection stands, in
// name order.
func (c *Core) Statuses() []servers.Status { return c.manager.Statuses() }

// Bridged lists the live bridged sessions.
func (c *Core) Bridged() []servers.Bridged { return c.bridges.List() }

// Retry brings forward the next attempt to connect to server name.
func (c *Core) Retry(name string) bool { return c.manager.Retry(name) }

// Restart connects to a server again at once (servers.Manager.Restart).
func (c *Core) Restart(name string) bool { return c.manager.Restart(name) }

// SignIn signs in to server name in the browser, telling progress how it
// goes.
func (c *Core) SignIn(ctx context.Context, name string, progress func(signin.Status)) error {
	return c.manager.SignIn(ctx, name, progress)
}

// SignOut forgets the sign-in to server name.
func (c *Core) SignOut(name string) error { return c.manager.SignOut(name) }

// errQuitting is why a request that reached a quitting core was not asked.
var errQuitting = errors.New("Elicit Desk is quitting")
