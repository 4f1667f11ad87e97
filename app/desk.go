// Package app is the Elicit Desk desktop app: it keeps the configured MCP
// servers connected, raises a window for each elicitation, lives in the
// system tray and remembers what was asked. The decisions live in plain Go
// packages (servers, forms, trust, history); this package builds windows
// and wires callbacks.
package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"

	"github.com/elicitdesk/elicitdesk/app/historyview"
	"github.com/elicitdesk/elicitdesk/app/hostsview"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/app/serversview"
	"github.com/elicitdesk/elicitdesk/app/trafficview"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/desktop/autostart"
	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// Core is what the windows ask of Elicit Desk's core, which keeps the
// servers, their requests and the history: *core.Core in this process (the
// tests), *core.Remote from the windows' process. The core owns every
// request: which gets a window, in what order, and whether an answer is
// taken; the windows show what it tells them.
type Core interface {
	// Attach tells events what the core tells the windows, until ctx ends.
	Attach(ctx context.Context, events core.Events) error
	// Answer sends the person's answer to a request; core.ErrNotWaiting
	// when it no longer waits.
	Answer(id string, r forms.Result) error
	// Closed says that the window of a request's opening-th opening
	// (core.Request.Opening) closed while it still waits.
	Closed(id string, opening int)
	// Show asks the core for a window: it resolves a request's into Open.
	Show(core.Show)
	// Focused says whether one of the windows has the keyboard.
	Focused(bool)
	// ShowLinks asks the links of a tool call's -32042 error as the
	// person's own requests, and returns their ids.
	ShowLinks(who servers.Identity, links []json.RawMessage) ([]string, error)
	// Statuses, Retry, SignIn, SignOut, Tools and CallTool.
	serversview.Servers
	Bridged() []servers.Bridged
	// SetHistoryLimits has the history kept by new limits; the core
	// refuses limits outside their bounds (history.Limits.Check).
	SetHistoryLimits(ctx context.Context, l core.HistoryLimits) error
	// ClearHistory deletes every entry of the history, which only the
	// core writes.
	ClearHistory(ctx context.Context) error
	SetWindowPrefs(core.WindowPrefs) error
	// Traffic lists the core's traffic entries numbered after after; with
	// wait, when there is none yet, it waits for the next a while.
	Traffic(ctx context.Context, after uint64, wait bool) ([]traffic.Entry, error)
	// SetTrafficPrefs has the core keep messages' bodies or not, redacted
	// by the person's patterns too; it refuses patterns that do not
	// compile.
	SetTrafficPrefs(core.TrafficPrefs) error
	// HistoryNotice is what opening the history had to say.
	HistoryNotice() string
	// NotificationsProblem is why no notification can show, or "".
	NotificationsProblem() string
	// Quit ends Elicit Desk: the core answers every request cancel.
	Quit()
	// Leave asks whether the windows may exit now that they idle, having
	// taken taken of the events told since they attached: not while the
	// core told them something more. Once let go they are told nothing.
	Leave(ctx context.Context, taken int) bool
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
	// CapturePath is where the core keeps the messages it captures, for
	// the Settings window to say.
	CapturePath string
	// TrayShown says that a tray host shows the core's icon; without one,
	// the Servers window stands in for it. It is what the core said when
	// it started the process; the core tells each change (trayChanged).
	TrayShown bool
	// WindowClass and WindowInstance, when set, are every window's X11
	// WM_CLASS (SetWindowHints), which New sets.
	WindowClass, WindowInstance string
}

// Desk is the running app: the windows.
type Desk struct {
	ctx    context.Context // ends when the windows close for good
	cancel context.CancelFunc
	fyne   fyne.App
	opts   Options
	log    *slog.Logger
	core   Core
	// requests are those the core told the windows to open, in the order
	// it did, until their windows close: the windows keep only what is on
	// screen.
	requests []*request
	waiting  int               // how many requests wait, as the core last said
	links    map[string]func() // what a link request of a tool call's tells when its window closes
	focus    latest[bool]      // whether a window has the keyboard
	prefs    latest[core.WindowPrefs]
	limits   latest[core.HistoryLimits]
	traffic  latest[core.TrafficPrefs]
	history  *history.Store // the History window's; nil when it could not be opened
	// windowless is how many of the requests waiting have no window, which
	// serversMore and a line atop each request window say.
	windowless  int
	serversMore *waitLine

	// unseen is a window never shown, if any (the one that set GLFW's
	// hints). It also keeps Fyne from quitting when the last window
	// closes: the windows' process exits after Idle instead.
	unseen fyne.Window
	// reading reads the desktop's light or dark into read, for Start.
	reading    sync.WaitGroup
	read       <-chan look.Desktop
	settings   Settings
	desktop    look.Desktop // the desktop's light or dark, read at start
	serversWin *serversview.Window
	historyWin *historyview.Window // made when first shown: windows cost memory
	trafficWin *trafficview.Window // made when first shown
	hostsWin   *hostsview.Window
	welcome    *welcome // the Welcome window, while it is open
	settingsW  fyne.Window
	aboutW     fyne.Window           // the About window, while it is open
	helpW      fyne.Window           // the Help window, while it is open
	withF1     map[fyne.Window]bool  // the windows whose keys addAppKeys wrapped for F1
	asking     *asking               // the quit question, while it shows
	idleSince  time.Time             // when the last window closed; zero while one shows
	closedAt   time.Time             // when a request window last closed (keyHold)
	leaving    bool                  // the core is asked to let the windows go
	taken      int                   // the core's events taken since attaching (events.take)
	lost       atomic.Pointer[error] // see Lost

	openURL func(*url.URL) error
	now     func() time.Time
	// guard is how long a request window the app opened ignores answers:
	// GuardTime, which tests that play the person who has seen it set to 0.
	guard time.Duration
	// do runs f on the UI goroutine, later: fyne.Do, which tests replace
	// because the test driver runs it at once on the caller's goroutine.
	do func(f func())
}

// New prepares the windows of core, GLFW's hints set (WindowClass) and the
// desktop's light or dark being read; Start attaches them.
func New(ctx context.Context, a fyne.App, c Core, opts Options) *Desk {
	ctx, cancel := context.WithCancel(ctx)
	d := &Desk{ctx: ctx, cancel: cancel, fyne: a, opts: opts, log: opts.Log, core: c, now: time.Now, guard: GuardTime, openURL: browserOpener(a), do: fyne.Do,
		links: map[string]func(){}, focus: newLatest[bool](), prefs: newLatest[core.WindowPrefs](), limits: newLatest[core.HistoryLimits](),
		traffic: newLatest[core.TrafficPrefs]()}
	// Read while GLFW starts (SetWindowHints), which keeps the UI
	// goroutine busy meanwhile: Start waits less, or not at all.
	read := make(chan look.Desktop, 1)
	d.read = read
	d.reading.Go(func() { read <- readDesktop(ctx) })
	if opts.WindowClass != "" {
		d.unseen = SetWindowHints(a, opts.WindowClass, opts.WindowInstance)
	}
	d.settings = loadSettings(a.Preferences())
	d.serversMore = newWaitLine(d.showOldestWaiting)
	d.serversMore.toggled = func(float32) { d.serversWin.TopChanged() }
	d.serversWin = serversview.New(a, serversview.Deps{
		Top:     d.serversMore.box,
		Servers: c, Bridged: c.Bridged, ConfigPath: opts.ConfigPath, ShowLinks: d.showLinks, ShowTraffic: func(server, session string) { d.showTraffic(trafficview.Of{Server: server, Session: session}) }, Log: d.log,
		Do:     func(f func()) { d.do(f) }, // tests replace d.do after New
		Screen: d.screen,
	})
	d.hostsWin = hostsview.New(a, hostsview.Deps{Hosts: opts.Hosts, Bridge: opts.Bridge, ConfigPath: opts.ConfigPath, Log: d.log, Screen: d.screen})
	lc := a.Lifecycle()
	lc.SetOnEnteredForeground(func() { d.tellFocus(true) })
	lc.SetOnExitedForeground(func() { d.tellFocus(false) })
	return d
}

// Start opens the History window's store and attaches the windows to the
// core, which tells them its servers and every request waiting. Without a
// tray host the Servers window stands in for the tray: its menu reaches
// the other windows.
func (d *Desk) Start() error {
	d.desktop = <-d.read
	d.applyTheme()
	d.openHistory()
	go d.clock()
	go d.focus.sendEach(d.ctx, d.core.Focused)
	go d.prefs.sendEach(d.ctx, d.sendWindowPrefs)
	go d.limits.sendEach(d.ctx, d.sendHistoryLimits)
	go d.traffic.sendEach(d.ctx, d.sendTrafficPrefs)
	go d.attach()
	if !d.opts.TrayShown {
		d.standIn()
	}
	d.addAppKeys()
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
		lost := fmt.Errorf("the connection to the core ended: %w", err)
		d.lost.Store(&lost)
		d.exit()
	})
}

// Lost says why the windows closed when the person or the idle time did
// not close them: the connection to the core ended. The windows' process
// then exits with a failure, which the core starts the next one only
// after a back-off for.
func (d *Desk) Lost() error {
	if err := d.lost.Load(); err != nil {
		return *err
	}
	return nil
}

// Done is closed once the windows close for good: the person or the idle
// time quit them, or the core went away.
func (d *Desk) Done() <-chan struct{} { return d.ctx.Done() }

// exit closes the windows and ends the windows' process; the core goes on.
func (d *Desk) exit() {
	d.cancel()
	d.fyne.Quit()
}

// Close ends the windows' work and closes the history.
func (d *Desk) Close() {
	d.cancel()
	d.reading.Wait()
	d.serversWin.Close() // first: the core's last changes must not reach widgets
	if d.history != nil {
		d.history.Close()
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
				for _, r := range d.requests {
					r.win.tick(now)
				}
				d.exitWhenIdle(now)
			})
		}
	}
}

// exitWhenIdle ends the windows' process once no window has shown and no
// request waited for Options.Idle, and the core lets it go: the core
// starts another when one is needed.
func (d *Desk) exitWhenIdle(now time.Time) {
	if d.opts.Idle <= 0 {
		return
	}
	if d.waiting > 0 || d.windowsShown() {
		d.idleSince = time.Time{}
		return
	}
	if d.idleSince.IsZero() {
		d.idleSince = now
	}
	if now.Sub(d.idleSince) < d.opts.Idle || d.leaving {
		return
	}
	d.leaving = true
	taken := d.taken
	go func() { // the core answers off the UI goroutine
		ok := d.core.Leave(d.ctx, taken)
		d.do(func() {
			d.leaving = false
			if !ok { // news came meanwhile: another idle time
				d.idleSince = time.Time{}
				return
			}
			d.log.Debug("no window for a while: the windows' process exits", "idle", d.opts.Idle)
			d.exit()
		})
	}()
}

// windowsShown reports whether a window of the app shows: any but
// the unseen one and a hidden Servers window.
func (d *Desk) windowsShown() bool {
	for _, w := range d.fyne.Driver().AllWindows() {
		if w != d.unseen && !d.serversWin.HiddenAs(w) {
			return true
		}
	}
	return false
}

// opened gives a request the core told of its window, or raises the one
// it has. A window the app opens by itself leaves the keyboard where it
// is.
func (d *Desk) opened(cr core.Request, by opener) {
	if r, ok := d.request(cr.ID); ok {
		r.Opening = cr.Opening // its closing names this opening now
		r.win.show(by)
		return
	}
	p, err := servers.ParseParams(cr.Params)
	if err != nil { // not from this core's checks: nobody could answer it
		d.log.Error("a request the core passed on cannot be asked", "server", cr.Server.Name, "err", err)
		go d.core.Answer(cr.ID, forms.Result{Action: forms.Cancel})
		return
	}
	r := &request{Request: cr, Params: p, answer: d.answer, completed: make(chan struct{}), more: newWaitLine(d.showOldestWaiting)}
	r.more.set(d.windowless)
	r.title = title(r.Server, r.Params, func(t string) bool {
		return slices.ContainsFunc(d.requests, func(o *request) bool { return o.title == t })
	})
	d.requests = append(d.requests, r)
	at := place{d.screen(), len(d.requests) - 1}
	if r.Mode == servers.ModeURL {
		r.win = d.newLinkWindow(r, at, by)
	} else {
		r.win = d.newFormWindow(r, at, by)
		if r.Server.Host == (servers.HostInfo{}) && r.Server.Machine == "" { // one of the person's servers, not a bridged one
			d.serversWin.FormAsked(r.Server.Name, r.Message, r.Form)
		}
	}
	d.addAppKeys()
	r.win.show(by)
	// The UI goroutine's next turn: the window exists and is mapped; its
	// first frame follows within one frame interval.
	d.do(func() {
		d.log.Debug("request shown", "server", r.Server.Name, "id", r.ID, "after", d.now().Sub(r.Received))
	})
}

// tellFocus has the core told whether a window of the app has the
// keyboard: on the UI goroutine, the latest state only, in order.
func (d *Desk) tellFocus(on bool) { d.focus.set(on) }

// request is the request with id that has a window.
func (d *Desk) request(id string) (*request, bool) {
	i := slices.IndexFunc(d.requests, func(r *request) bool { return r.ID == id })
	if i < 0 {
		return nil, false
	}
	return d.requests[i], true
}

// answer sends r's answer off the UI goroutine, then, back on it, runs
// sent, or shows why the core did not take it.
func (d *Desk) answer(r *request, res forms.Result, sent func()) {
	go func() {
		err := d.core.Answer(r.ID, res)
		d.do(func() {
			switch {
			case err == nil:
				sent()
			case errors.Is(err, core.ErrNotWaiting):
				// Its Ended, with the reason, follows or came already.
			default: // it still waits: closing the window gives its place to the next
				d.log.Warn("the answer was not taken", "server", r.Server.Name, "err", err)
				r.sending = false
				r.goStale("Elicit Desk did not send the answer: " + err.Error())
			}
		})
	}()
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

// lastClosed is when a request window last closed, for keyHold.
func (d *Desk) lastClosed() time.Time { return d.closedAt }

// windowClosed forgets a request once its window closed; the core gives
// its place to the next request if it still waits.
func (d *Desk) windowClosed(r *request) {
	d.log.Debug("request window closed", "server", r.Server.Name, "id", r.ID, "answered", r.ended)
	d.closedAt = d.now() // the window manager may now hand the keyboard to the next one
	d.requests = slices.DeleteFunc(d.requests, func(x *request) bool { return x == r })
	d.tellFocus(false) // Fyne never says that a closed window had the keyboard
	if !r.taken && !r.sending {
		go d.core.Closed(r.ID, r.Opening) // its place goes to the next request
	}
	if done, ok := d.links[r.ID]; ok {
		delete(d.links, r.ID)
		done()
	}
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

// showLinks has the core ask the URL elicitations of a tool call's
// -32042 error, each in its own window, and reports when the person has
// dealt with all: their windows closed.
func (d *Desk) showLinks(who servers.Identity, links []servers.Params) <-chan struct{} {
	done := make(chan struct{})
	raws := make([]json.RawMessage, len(links))
	for i, p := range links {
		raws[i] = p.Raw
	}
	go func() {
		ids, err := d.core.ShowLinks(who, raws)
		d.do(func() {
			if err != nil {
				d.log.Warn("the links were not shown", "err", err)
			}
			left := len(ids)
			if left == 0 {
				close(done)
				return
			}
			for _, id := range ids {
				d.links[id] = func() {
					if left--; left == 0 {
						close(done)
					}
				}
			}
		})
	}()
	return done
}
