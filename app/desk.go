// Package app is the Elicit Desk desktop app: it keeps the configured MCP
// servers connected, raises a window for each elicitation, lives in the
// system tray and remembers what was asked. The decisions live in plain Go
// packages (servers, forms, trust, history); this package builds windows
// and wires callbacks.
package app

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net/url"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"github.com/elicitdesk/elicitdesk/app/historyview"
	"github.com/elicitdesk/elicitdesk/app/hostsview"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/app/serversview"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/desktop/autostart"
	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// Core is what the windows ask of Elicit Desk's core, which keeps the
// servers, their requests and the history: *core.Core in this process (the
// tests), *core.Remote from the windows' process.
type Core interface {
	// Attach tells events what the core tells the windows, until ctx ends.
	Attach(ctx context.Context, events core.Events) error
	// Answer sends the person's answer to a request; core.ErrNotWaiting
	// when it no longer waits.
	Answer(id string, r forms.Result) error
	// Statuses, Retry, SignIn, SignOut, Tools and CallTool.
	serversview.Servers
	Bridged() []servers.Bridged
	// SetHistoryLimits has the history kept by new limits; the core
	// refuses limits outside their bounds (history.Limits.Check).
	SetHistoryLimits(core.HistoryLimits) error
	// ClearHistory deletes every entry of the history, which only the
	// core writes.
	ClearHistory(ctx context.Context) error
	// HistoryNotice is what opening the history had to say.
	HistoryNotice() string
	// Quit ends Elicit Desk: the core answers every request cancel.
	Quit()
}

// Options say where the app keeps its files and how it starts at login.
type Options struct {
	ConfigPath  string        // servers.json
	HistoryPath string        // history.db, which the History window reads
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
	// Dates is how the person's locale writes dates, found once at start:
	// every form, and every replay of one, shows and reads dates so.
	Dates forms.DateStyle
	// Version says which build this is, for the About window.
	Version string
	// Idle is how long the windows' process stays with no window open
	// before it exits; 0: it stays until the core quits.
	Idle time.Duration
	// TrayShown says that a tray host shows the core's icon; without one,
	// the Servers window stands in for it.
	TrayShown bool
	// Unseen is a window never shown, if any (the one that set GLFW's
	// hints). It also keeps Fyne from quitting when the last window
	// closes: the windows' process exits after Idle instead.
	Unseen fyne.Window
}

// Desk is the running app: the windows.
type Desk struct {
	ctx    context.Context // ends when the windows close for good
	cancel context.CancelFunc
	fyne   fyne.App
	opts   Options
	log    *slog.Logger
	core   Core
	// local asks the core's requests in this process, so that a window
	// deals with a servers.Elicitation as the core's own connections do.
	local *servers.Router
	asks  map[string]context.CancelCauseFunc // by the core's request id, while asked
	// wanted are the core's requests the person asked to see (the tray, a
	// tool call's link) before they reached the queue: they open at once.
	wanted  map[string]bool
	history *history.Store // the History window's; nil when it could not be opened

	settings   Settings
	desktop    look.Desktop // the desktop's light or dark, read at start
	queue      queue[*request]
	serversWin *serversview.Window
	historyWin *historyview.Window // made when first shown: windows cost memory
	hostsWin   *hostsview.Window
	welcome    *welcome // the Welcome window, while it is open
	// afterRequests are windows the core asked for by itself, shown once
	// no request is left.
	afterRequests []func()
	settingsW     fyne.Window
	aboutW        fyne.Window // the About window, while it is open
	asking        *asking     // the quit question, while it shows
	focused       bool        // one of our windows has focus
	notifier      notifier    // nil where no notification server answers
	notices       notices     // the notifications shown, by request or server
	noticing      sync.WaitGroup
	idleSince     time.Time // when the last window closed; zero while one shows
	lost          error     // see Lost

	openURL func(*url.URL) error
	now     func() time.Time
	// guard is how long a request window the app opened ignores answers:
	// GuardTime, which tests that play the person who has seen it set to 0.
	guard time.Duration
	// do runs f on the UI goroutine, later: fyne.Do, which tests replace
	// because the test driver runs it at once on the caller's goroutine.
	do func(f func())
}

// noLimits: the core applied each server's limits already.
var noLimits = servers.Limits{Waiting: math.MaxInt, PerMinute: math.MaxInt}

// New prepares the windows of core; Start attaches them.
func New(ctx context.Context, a fyne.App, c Core, opts Options) *Desk {
	ctx, cancel := context.WithCancel(ctx)
	d := &Desk{ctx: ctx, cancel: cancel, fyne: a, opts: opts, log: opts.Log, core: c, now: time.Now, guard: GuardTime, openURL: browserOpener(a), do: fyne.Do,
		asks: map[string]context.CancelCauseFunc{}, wanted: map[string]bool{}}
	d.settings = loadSettings(a.Preferences())
	d.queue.max = d.settings.MaxWindows
	d.local = servers.NewRouter(noLimits, d.log)
	d.serversWin = serversview.New(a, serversview.Deps{
		Servers: c, Bridged: c.Bridged, ConfigPath: opts.ConfigPath, ShowLinks: d.showLinks, Log: d.log,
		Do:     func(f func()) { d.do(f) }, // tests replace d.do after New
		Screen: d.screen,
	})
	d.hostsWin = hostsview.New(a, hostsview.Deps{Hosts: opts.Hosts, Bridge: opts.Bridge, ConfigPath: opts.ConfigPath, Log: d.log, Screen: d.screen})
	lc := a.Lifecycle()
	lc.SetOnEnteredForeground(func() { d.focused = true })
	lc.SetOnExitedForeground(func() { d.focused = false })
	return d
}

// Start opens the History window's store and attaches the windows to the
// core, which tells them its servers and every request waiting. Without a
// tray host the Servers window stands in for the tray: its menu reaches
// the other windows.
func (d *Desk) Start() error {
	d.desktop = readDesktop(d.ctx)
	d.applyTheme()
	d.openHistory()
	d.notifier = d.newNotifier()
	go d.take()
	go d.clock()
	go d.attach()
	if !d.opts.TrayShown {
		w := d.serversWin.Window()
		w.SetMainMenu(fyne.NewMainMenu(fyne.NewMenu("Elicit Desk", d.menuItems()...)))
		w.SetCloseIntercept(d.closeWithoutTray)
	}
	d.addQuitKeys()
	return nil
}

// attach has the core's news told to the windows until they close; when
// the core goes away, so do they.
func (d *Desk) attach() {
	err := d.core.Attach(d.ctx, events{d})
	if d.ctx.Err() != nil {
		return
	}
	d.log.Warn("the core went away: closing the windows", "err", err)
	d.do(func() {
		d.lost = fmt.Errorf("the connection to the core ended: %w", err)
		d.exit()
	})
}

// Lost says why the windows closed when the person or the idle time did
// not close them: the connection to the core ended. The windows' process
// then exits with a failure, which the core starts the next one only
// after a back-off for.
func (d *Desk) Lost() error { return d.lost }

// exit closes the windows and ends the windows' process; the core goes on.
func (d *Desk) exit() {
	d.cancel()
	d.fyne.Quit()
}

// Close ends the windows' work and closes the history.
func (d *Desk) Close() {
	d.cancel()
	d.serversWin.Close() // first: the core's last changes must not reach widgets
	d.closeNotices()
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

// take hands each request to the UI goroutine, as the local router
// queues it.
func (d *Desk) take() {
	for {
		e, err := d.local.Next(d.ctx)
		if err != nil {
			return
		}
		d.do(func() { d.arrive(e) })
	}
}

// clock keeps "arrived … ago" current and, in the windows' process, ends
// it once no window has shown for Options.Idle.
func (d *Desk) clock() {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-d.ctx.Done():
			return
		case <-t.C:
			d.do(func() {
				now := d.now()
				for _, r := range d.queue.open {
					if r.win != nil {
						r.win.tick(now)
					}
				}
				d.exitWhenIdle(now)
			})
		}
	}
}

// exitWhenIdle ends the windows' process once no window has shown and no
// request waited for Options.Idle: the core starts another when one is
// needed.
func (d *Desk) exitWhenIdle(now time.Time) {
	if d.opts.Idle <= 0 {
		return
	}
	if d.queue.len() > 0 || d.windowsShown() {
		d.idleSince = time.Time{}
		return
	}
	if d.idleSince.IsZero() {
		d.idleSince = now
	}
	if now.Sub(d.idleSince) >= d.opts.Idle {
		d.log.Debug("no window for a while: the windows' process exits", "idle", d.opts.Idle)
		d.exit()
	}
}

// windowsShown reports whether a window of the app shows: any but
// Options.Unseen and a hidden Servers window.
func (d *Desk) windowsShown() bool {
	for _, w := range d.fyne.Driver().AllWindows() {
		if w != d.opts.Unseen && !d.serversWin.HiddenAs(w) {
			return true
		}
	}
	return false
}

// arrive takes in a new request: a window when fewer than the limit are
// open, a place in the tray menu otherwise.
func (d *Desk) arrive(e *servers.Elicitation) {
	d.log.Debug("request arrived", "server", e.Server.Name, "id", e.ID, "mode", e.Mode)
	r := d.newRequest(e)
	switch {
	case d.wanted[r.coreID]: // the person asked for it before it arrived
		delete(d.wanted, r.coreID)
		d.queue.addOpen(r)
		d.open(r)
	case d.queue.add(r):
		d.openBy(r, byApp)
	}
	d.notify(r)
	go func() {
		<-e.Context().Done()
		d.do(func() {
			if r.ended {
				return
			}
			r.goStale(core.StaleReason(e.Context()))
			if r.win == nil {
				d.drop(r)
			}
		})
	}()
}

func (d *Desk) newRequest(e *servers.Elicitation) *request {
	id, _ := e.Context().Value(coreID{}).(string)
	r := &request{Elicitation: e, coreID: id}
	r.onEnd = func() { d.withdraw(r) }
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
	d.asking.update(d.pending())
	if d.queue.len() == 0 {
		later := d.afterRequests
		d.afterRequests = nil
		for _, f := range later {
			f()
		}
	}
}

// whenNoRequests runs f, which opens a window of the app's own accord,
// now, or once the requests are answered: such a window must not cover a
// request's.
func (d *Desk) whenNoRequests(f func()) {
	if d.queue.len() > 0 {
		d.afterRequests = append(d.afterRequests, f)
		return
	}
	f()
}

// others are the identities of every server but name, which a message
// must not claim to be.
func (d *Desk) others(name string) []servers.Identity {
	var ids []servers.Identity
	for _, s := range d.core.Statuses() {
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
			r := d.newRequest(d.local.Expect(who, p))
			r.onClosed = func() {
				if left--; left == 0 {
					close(done)
				}
			}
			d.queue.addOpen(r) // the person called the tool: past the limit
			d.open(r)
		}
	})
	return done
}
