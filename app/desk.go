// Package app is the Elicit Desk desktop app: it keeps the configured MCP
// servers connected, raises a window for each elicitation, lives in the
// system tray and remembers what was asked. The decisions live in plain Go
// packages (servers, forms, trust, history); this package builds windows
// and wires callbacks.
package app

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"github.com/elicitdesk/elicitdesk/app/historyview"
	"github.com/elicitdesk/elicitdesk/app/hostsview"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/app/serversview"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/autostart"
	"github.com/elicitdesk/elicitdesk/internal/gate"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/internal/screen"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// Options say where the app keeps its files and how it starts at login.
type Options struct {
	ConfigPath  string        // servers.json
	HistoryPath string        // history.db
	Demo        config.Server // the entry a first start writes to servers.json
	Autostart   autostart.Entry
	Log         *slog.Logger
	// Bridge is this elicitdesk binary, the bridge that hosts' configs run,
	// and those an earlier route wrote.
	Bridge hosts.Binaries
	// Hosts are the MCP hosts whose configs the Hosts window reads.
	Hosts []hosts.Host
	// Screen finds where a new window goes, on the UI goroutine; nil or
	// false: screen.Fallback.
	Screen func() (screen.Screen, bool)
	// Signer signs in to remote servers that ask for it, from the
	// Servers window; nil: they fail as any refused connection does.
	Signer *signin.Signer
	// Dates is how the person's locale writes dates, found once at start:
	// every form, and every replay of one, shows and reads dates so.
	Dates forms.DateStyle
	// Version says which build this is, for the About window.
	Version string
	// Background: a bridge started the app for a request, not the person.
	// It opens no window of its own before that request: where no tray
	// host shows the icon, the Servers window would cover it, and the
	// Welcome of a first start waits until the requests are answered.
	Background bool
}

// Desk is the running app.
type Desk struct {
	ctx     context.Context // ends when the app quits
	cancel  context.CancelFunc
	fyne    fyne.App
	opts    Options
	log     *slog.Logger
	router  *servers.Router
	manager *servers.Manager
	bridges *servers.Bridges // the hosts' sessions through elicitdesk bridge
	history *history.Store   // nil when it could not be opened
	opened  chan struct{}    // closed once Start has set history
	writes  gate.Gate        // history writes: shut by Close, which waits for them

	settings   Settings
	desktop    look.Desktop // the desktop's light or dark, read at start
	queue      queue[*request]
	serversWin *serversview.Window
	historyWin *historyview.Window // made when first shown: windows cost memory
	hostsWin   *hostsview.Window
	welcome    *welcome // the Welcome window, while it is open
	// afterRequests are windows the app opens by itself once no request
	// is left (see Options.Background).
	afterRequests []func()
	settingsW     fyne.Window
	aboutW        fyne.Window // the About window, while it is open
	tray          *tray       // nil where there is no tray
	trayShown     bool        // a tray host shows the icon; else the Servers window stands in
	asking        *asking     // the quit question, while it shows
	focused       bool        // one of our windows has focus
	notifier      notifier    // nil where no notification server answers
	notices       notices     // the notifications shown, by request or server
	downs         downWatch   // which servers' failures were told
	noticing      sync.WaitGroup

	openURL func(*url.URL) error
	now     func() time.Time
	// guard is how long a request window the app opened ignores answers:
	// GuardTime, which tests that play the person who has seen it set to 0.
	guard time.Duration
	// do runs f on the UI goroutine, later: fyne.Do, which tests replace
	// because the test driver runs it at once on the caller's goroutine.
	do func(f func())
}

// New prepares the app; Start connects the servers.
func New(ctx context.Context, a fyne.App, opts Options) *Desk {
	ctx, cancel := context.WithCancel(ctx)
	d := &Desk{ctx: ctx, cancel: cancel, fyne: a, opts: opts, log: opts.Log, now: time.Now, guard: GuardTime, openURL: browserOpener(a), do: fyne.Do,
		opened: make(chan struct{})}
	d.settings = loadSettings(a.Preferences())
	d.queue.max = d.settings.MaxWindows
	d.router = servers.NewRouter(servers.DefaultLimits, d.log)
	d.router.OnRefused(func(x servers.Refusal) { d.record(refusalEntry(x)) })
	d.manager = servers.NewManager(d.router, d.log, func(s servers.Status) {
		d.log.Info("server", "name", s.Name, "state", s.State, "err", s.Err)
		d.do(func() { d.serverChanged(s) })
	})
	if opts.Signer != nil {
		d.manager.UseSigner(opts.Signer)
	}
	d.bridges = servers.NewBridges(func() { d.serversWin.BridgesChanged() })
	d.serversWin = serversview.New(a, serversview.Deps{
		Manager: d.manager, Bridges: d.bridges, ConfigPath: opts.ConfigPath, ShowLinks: d.showLinks, Log: d.log,
		Do:     func(f func()) { d.do(f) }, // tests replace d.do after New
		Screen: d.screen,
	})
	d.hostsWin = hostsview.New(a, hostsview.Deps{Hosts: opts.Hosts, Bridge: opts.Bridge, ConfigPath: opts.ConfigPath, Log: d.log, Screen: d.screen})
	lc := a.Lifecycle()
	lc.SetOnEnteredForeground(func() { d.focused = true })
	lc.SetOnExitedForeground(func() { d.focused = false })
	return d
}

// Start opens the history, connects every configured server and begins
// taking requests. Without a tray host it shows the Servers window, so the
// app is never running unseen. A first start, with no servers.json yet,
// also shows the Welcome window.
func (d *Desk) Start() error {
	first := firstRun(d.opts.ConfigPath)
	if _, err := config.Ensure(d.opts.ConfigPath, d.opts.Demo); err != nil {
		return err
	}
	d.desktop = readDesktop(d.ctx)
	d.applyTheme()
	d.openHistory()
	d.notifier = d.newNotifier()
	if err := d.manager.Watch(d.ctx, d.opts.ConfigPath); err != nil {
		return err
	}
	go d.take()
	go d.clock()
	if d.tray, d.trayShown = newTray(d); !d.trayShown {
		// The Servers window stands in for the tray: its menu reaches the
		// other windows, and closing it keeps running in the background
		// or quits, as the person chose the first time.
		w := d.serversWin.Window()
		w.SetMainMenu(fyne.NewMainMenu(fyne.NewMenu("Elicit Desk", d.menuItems()...)))
		w.SetCloseIntercept(d.closeWithoutTray)
		if !d.opts.Background {
			d.serversWin.Appear()
		}
	}
	if first {
		d.whenNoRequests(func() { d.welcomeBy(byApp) })
	}
	d.addQuitKeys()
	return nil
}

// serverChanged follows a server's new status: the Servers window, the
// tray, and a notification when a ready server failed.
func (d *Desk) serverChanged(s servers.Status) {
	d.serversWin.Update(s)
	d.refreshTray()
	d.noticeDown(s)
}

// Close stops every server and finishes writing the history.
func (d *Desk) Close() {
	d.cancel()
	d.serversWin.Close() // first: the manager's last changes must not reach widgets
	d.closeNotices()
	d.manager.Close()
	d.writes.Close()
	if d.history != nil {
		d.history.Close()
	}
}

// Front brings the app forward when the person starts it again: the oldest
// request if one waits, the Servers window otherwise.
func (d *Desk) Front() {
	for _, r := range d.queue.all() {
		if r.win != nil {
			d.open(r)
			return
		}
	}
	d.serversWin.Show()
	d.addQuitKeys()
}

// take hands each request the router queues to the UI goroutine.
func (d *Desk) take() {
	for {
		e, err := d.router.Next(d.ctx)
		if err != nil {
			return
		}
		d.do(func() { d.arrive(e) })
	}
}

// clock keeps "arrived … ago" current and, for an app that runs from
// login for weeks, prunes the history once a day.
func (d *Desk) clock() {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	daily := time.NewTicker(24 * time.Hour)
	defer daily.Stop()
	for {
		select {
		case <-d.ctx.Done():
			return
		case <-daily.C:
			d.do(d.prune)
		case <-t.C:
			d.do(func() {
				now := d.now()
				for _, r := range d.queue.open {
					if r.win != nil {
						r.win.tick(now)
					}
				}
			})
		}
	}
}

// arrive takes in a new request: a window when fewer than the limit are
// open, a place in the tray menu otherwise.
func (d *Desk) arrive(e *servers.Elicitation) {
	d.log.Debug("request arrived", "server", e.Server.Name, "id", e.ID, "mode", e.Mode)
	r := d.newRequest(e)
	if d.queue.add(r) {
		d.openBy(r, byApp)
	}
	d.notify(r)
	d.refreshTray()
	go func() {
		<-e.Context().Done()
		d.do(func() {
			if r.ended {
				return
			}
			r.goStale(staleReason(e.Context()))
			if r.win == nil {
				d.drop(r)
			}
		})
	}()
}

func (d *Desk) newRequest(e *servers.Elicitation) *request {
	r := &request{Elicitation: e, record: d.record}
	r.onEnd = func() {
		d.withdraw(r)
		d.refreshTray()
	}
	return r
}

// open gives a request its window, or raises it, with the keyboard: the
// person asked for it (the tray menu, a notification, a second start).
func (d *Desk) open(r *request) { d.openBy(r, byPerson) }

// openBy gives a request its window, or raises it; its notification, no
// longer needed, goes. A window the app opens by itself leaves the
// keyboard where it is.
func (d *Desk) openBy(r *request, by opener) {
	d.withdraw(r)
	if r.win != nil {
		r.win.show(by)
		return
	}
	at := place{d.screen(), d.queue.opened() - 1} // r is one of the opened
	if r.Mode == servers.ModeURL {
		r.win = d.newLinkWindow(r, at, by)
	} else {
		r.win = d.newFormWindow(r, at, by)
	}
	d.addQuitKeys()
	r.win.show(by)
	// The UI goroutine's next turn: the window exists and is mapped; its
	// first frame follows within one frame interval.
	d.do(func() {
		d.log.Debug("request shown", "server", r.Server.Name, "id", r.ID, "after", d.now().Sub(r.Received))
	})
}

// screen is where a new window goes.
func (d *Desk) screen() screen.Screen {
	if d.opts.Screen != nil {
		if s, ok := d.opts.Screen(); ok {
			return s
		}
	}
	return screen.Fallback()
}

// windowClosed lets the next waiting requests in.
func (d *Desk) windowClosed(r *request) {
	d.log.Debug("request window closed", "server", r.Server.Name, "id", r.ID, "answered", r.ended)
	// Fyne never says that a closed window had focus, and then says
	// nothing more until one of ours gains and loses it: without this,
	// answering a request would end its notifications for good.
	d.focused = false
	if r.onClosed != nil {
		r.onClosed()
	}
	d.drop(r)
}

// drop forgets a request and opens the windows its place frees, or,
// when it was the last, those that waited for the requests.
func (d *Desk) drop(r *request) {
	for _, next := range d.queue.remove(r) {
		d.openBy(next, byApp)
	}
	d.refreshTray()
	if d.queue.len() == 0 {
		later := d.afterRequests
		d.afterRequests = nil
		for _, f := range later {
			f()
		}
	}
}

// whenNoRequests runs f, which opens a window of the app's own accord,
// now, or once the requests are answered when a bridge started the app
// for one: such a window must not cover a request's.
func (d *Desk) whenNoRequests(f func()) {
	if d.opts.Background {
		d.afterRequests = append(d.afterRequests, f)
		return
	}
	f()
}

// others are the identities of every server but name, which a message
// must not claim to be.
func (d *Desk) others(name string) []servers.Identity {
	var ids []servers.Identity
	for _, s := range d.manager.Statuses() {
		if s.Name != name {
			ids = append(ids, s.Identity)
		}
	}
	return ids
}

// showLinks shows the URL elicitations of a tool call's -32042 error,
// each in its own window, and reports when the person has dealt with all.
func (d *Desk) showLinks(who servers.Identity, links []servers.Params) <-chan struct{} {
	done := make(chan struct{})
	d.do(func() {
		left := len(links)
		if left == 0 {
			close(done)
			return
		}
		for _, p := range links {
			r := d.newRequest(d.router.Expect(who, p))
			r.onClosed = func() {
				if left--; left == 0 {
					close(done)
				}
			}
			d.queue.addOpen(r) // the person called the tool: past the limit
			d.open(r)
		}
		d.refreshTray()
	})
	return done
}

// record keeps an entry in the history without holding up the window.
func (d *Desk) record(e history.Entry) {
	if err := d.keep(e); errors.Is(err, errQuitting) {
		d.log.Warn("history not written: the app is closing", "server", e.Server, "outcome", e.Outcome)
	}
}

// errNoHistory is why the app takes no entry: the history could not be
// opened.
var errNoHistory = errors.New("Elicit Desk runs without a history")

// keep has e written to the history after it returns; an error says it
// will not be: there is no history, or the app is quitting.
func (d *Desk) keep(e history.Entry) error {
	if d.history == nil {
		return errNoHistory
	}
	e = history.Shorten(e) // what waits for the disk is small
	if !d.writes.Go(func() {
		if _, err := d.history.Add(context.WithoutCancel(d.ctx), e); err != nil {
			d.log.Error("history not written", "err", err)
			return
		}
		d.do(func() {
			if d.historyWin != nil {
				d.historyWin.Refresh()
			}
		})
	}) {
		return errQuitting
	}
	return nil
}
