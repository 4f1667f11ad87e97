package core

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
	"github.com/elicitdesk/elicitdesk/servers"
)

// Events is what the windows are told, in order, one call at a time and
// outside the core's locks. Each method must return soon: it holds up the
// next.
type Events interface {
	// Open: give request r a window, or raise the one it has. by says who
	// wants it: the app (a request arrived, or a place among the windows
	// freed), which opens it without the keyboard, or the person. Requests
	// open in the order they arrived; one told twice (at attach) opens
	// once.
	Open(r Request, by Opener)
	// Ended: request id no longer waits. answered: the windows answered
	// it; otherwise cause is why it went stale, as StaleReason reads it.
	// An id the windows do not know is ignored.
	Ended(id string, answered bool, cause string)
	// Completed: a URL-mode request's server reported the step done, or,
	// gone, went away after the person's accept without reporting it.
	Completed(id string, gone bool)
	// Waiting: how many requests wait for an answer now, and how many of
	// them wait for a window.
	Waiting(n Count)
	// Servers: where each configured server stands now, in name order.
	Servers([]servers.Status)
	// Bridges: the live bridged sessions now.
	Bridges([]servers.Bridged)
	// HistoryChanged: entries were written or deleted.
	HistoryChanged()
	// Show: the person (or, Own, the core) asked for a window.
	Show(Show)
	// Quit: the core quits; the windows close and their process exits.
	Quit()
	// Notify: show n, where the core has no notification server of its
	// own (Options.NotifyInWindows).
	Notify(n notify.Notice)
	// Tray: whether a tray host shows the core's icon, told first at
	// attach and then each time it changes (see Core.TrayHost). Without
	// one the Servers window stands in for the tray, with the app's menu
	// and a question when closed; with one, what is shown next goes back
	// to the tray's ways.
	Tray(shown bool)
}

// Count is how many requests wait for an answer: all of them, and those
// without a window, which wait their turn or were closed unanswered and
// would otherwise be seen only in the tray menu.
type Count struct {
	All        int `json:"count"`
	Windowless int `json:"windowless,omitempty"`
}

// Opener says who wants a request's window.
type Opener string

const (
	ByApp    Opener = "app"    // no keyboard: the person is busy elsewhere
	ByPerson Opener = "person" // with the keyboard: they asked for it
)

// Show names a window the person asked for.
type Show struct {
	Window  Window `json:"window"`
	Server  string `json:"server,omitempty"`  // WindowServers: the server to select
	Request string `json:"request,omitempty"` // WindowRequest: the request's id
	// Own: the core asks by itself (a first start, no tray host), not the
	// person; the window waits until no request is left, and takes no
	// keyboard.
	Own bool `json:"own,omitempty"`
	// Menu: WindowServers with the tray's entries in its menu bar, for a
	// click on the icon of a tray host that shows no menus (swaybar).
	Menu bool `json:"menu,omitempty"`
}

// Window is one of the windows.
type Window string

const (
	WindowFront    Window = "front"   // the oldest request's, else Welcome while it shows, else Servers: a second start, the wait line's Show
	WindowRequest  Window = "request" // the core resolves both into Open
	WindowServers  Window = "servers"
	WindowHosts    Window = "hosts"
	WindowHistory  Window = "history"
	WindowTraffic  Window = "traffic" // Show.Server, if set, filters it
	WindowSettings Window = "settings"
	WindowWelcome  Window = "welcome"
	WindowAbout    Window = "about"
	WindowHelp     Window = "help" // the Help window, offline
	WindowQuit     Window = "quit" // the quit question, while requests wait
)

// event is one thing to tell the windows; exactly one field is set.
type event struct {
	open      *opening
	ended     *ended
	completed *completion
	waiting   *Count
	statuses  *[]servers.Status // pointers: an empty list is news too
	bridges   *[]servers.Bridged
	history   bool
	show      *Show
	quit      bool
	notice    *notify.Notice
	tray      *bool
}

type opening struct {
	Request Request `json:"request"`
	By      Opener  `json:"by"`
}

type completion struct {
	ID   string `json:"id"`
	Gone bool   `json:"gone,omitempty"` // the server went away instead
}

type ended struct {
	ID       string `json:"id"`
	Answered bool   `json:"answered,omitempty"`
	Cause    string `json:"cause,omitempty"`
}

// tell calls the method of ev's kind.
func (ev event) tell(to Events) {
	switch {
	case ev.open != nil:
		to.Open(ev.open.Request, ev.open.By)
	case ev.ended != nil:
		to.Ended(ev.ended.ID, ev.ended.Answered, ev.ended.Cause)
	case ev.completed != nil:
		to.Completed(ev.completed.ID, ev.completed.Gone)
	case ev.waiting != nil:
		to.Waiting(*ev.waiting)
	case ev.statuses != nil:
		to.Servers(*ev.statuses)
	case ev.bridges != nil:
		to.Bridges(*ev.bridges)
	case ev.history:
		to.HistoryChanged()
	case ev.show != nil:
		to.Show(*ev.show)
	case ev.quit:
		to.Quit()
	case ev.notice != nil:
		to.Notify(*ev.notice)
	case ev.tray != nil:
		to.Tray(*ev.tray)
	}
}

// retellWithin is how lately a Show told to windows that went away
// without being let go (a crash, a lost display) may not have shown: the
// next windows are told it again, as they are told every request.
const retellWithin = 30 * time.Second

type toldShow struct {
	Show
	at time.Time
}

// feed passes events to the attached windows in order, from one goroutine
// at a time and outside its lock. Without windows, events are dropped but
// for Show, which waits for the next, as does one told lately to windows
// that went away unasked: the rest is told afresh at attach.
type feed struct {
	mu       sync.Mutex
	to       Events // nil while no windows are attached
	gen      int    // which attach to is
	replaced chan struct{}
	queue    []event
	shows    []Show // asked for while no windows were attached
	running  bool
	// sent counts the events of this attach taken from the queue: the
	// windows may leave only once they took them all (letGo).
	sent int
	told []toldShow // the Shows taken for this attach within retellWithin
	// trayShown: a tray host shows the core's icon. The feed keeps it, so
	// that windows attaching are told it in order with its changes.
	trayShown bool
}

// setTray keeps whether a tray host shows the core's icon and tells the
// windows; it reports whether that changed.
func (f *feed) setTray(shown bool) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.trayShown == shown {
		return false
	}
	f.trayShown = shown
	f.queued(event{tray: &shown})
	return true
}

// tray reports whether a tray host shows the core's icon.
func (f *feed) tray() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.trayShown
}

// push queues ev for the windows and reports whether they are attached.
func (f *feed) push(ev event) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.queued(ev)
}

// queued is push with f.mu held.
func (f *feed) queued(ev event) bool {
	if f.to == nil {
		if ev.show != nil {
			f.shows = append(f.shows, *ev.show)
		}
		return false
	}
	f.queue = append(f.queue, ev)
	if !f.running {
		f.running = true
		go f.deliver(f.to, f.gen)
	}
	return true
}

// deliver tells to each queued event, then ends; a run of an earlier
// attach ends at once.
func (f *feed) deliver(to Events, gen int) {
	for {
		f.mu.Lock()
		if f.gen != gen {
			f.mu.Unlock()
			return
		}
		if len(f.queue) == 0 {
			f.running = false
			f.mu.Unlock()
			return
		}
		ev := f.queue[0]
		f.queue = f.queue[1:]
		f.sent++
		if ev.show != nil {
			now := time.Now()
			f.told = append(slices.DeleteFunc(f.told, func(t toldShow) bool { return now.Sub(t.at) >= retellWithin }),
				toldShow{*ev.show, now})
		}
		f.mu.Unlock()
		ev.tell(to)
	}
}

// letGo detaches windows to (nil: whichever are attached), which ask to
// leave having taken taken events since they attached, and reports
// whether they may: only when they took every event sent them and none
// waits. What comes next is told to the windows attaching after them, a
// Show included, which windows exiting with it untaken would lose.
// Windows already replaced or detached may go.
func (f *feed) letGo(to Events, taken int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.to == nil || to != nil && f.to != to {
		return true
	}
	if len(f.queue) > 0 || taken != f.sent {
		return false
	}
	f.to, f.queue, f.replaced, f.running, f.told = nil, nil, nil, false, nil
	f.gen++
	return true
}

// admit adds w to p and, when it gets a place, tells the windows to open
// it, both under the feed's lock: the windows are told of requests that
// arrive at once in the order p keeps them, and windows attaching are
// told each once.
func (f *feed) admit(p *pending, w *waiting, by Opener) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p.add(w) {
		f.opening(p, w, by)
	}
}

// open tells the windows to open w, one of p's.
func (f *feed) open(p *pending, w *waiting, by Opener) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opening(p, w, by)
}

// opening is open with f.mu held.
func (f *feed) opening(p *pending, w *waiting, by Opener) {
	o := p.opening(w, by)
	p.told(w, f.queued(event{open: &o}), by)
}

// pushCount tells the windows how many requests wait, counted under the
// feed's lock, so that counts arrive in the order they were counted; it
// returns how many wait in all.
func (f *feed) pushCount(p *pending) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := p.count()
	f.queued(event{waiting: &n})
	return n.All
}

// waitingShows reports whether the person asked for a window no windows
// have been told of.
func (f *feed) waitingShows() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.shows) > 0
}

// attached reports whether windows are attached.
func (f *feed) attached() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.to != nil
}

// errReplaced ends an Attach when newer windows attach.
var errReplaced = errors.New("other windows attached")

// Attach makes to the windows: they are told the servers, the bridged
// sessions and every request that has a place among the windows, oldest
// first, then each event as it comes, until ctx ends or other windows
// attach (errReplaced). When the core quits, to is told Quit and Attach
// returns once ctx ends.
func (c *Core) Attach(ctx context.Context, to Events) error {
	c.Focused(false) // new windows have not the keyboard until they say so
	defer c.Focused(false)
	f := &c.feed
	// The state afresh, first: an event pushed meanwhile may repeat it.
	statuses, bridges := c.manager.Statuses(), c.bridges.List()
	f.mu.Lock()
	if f.replaced != nil {
		close(f.replaced)
	}
	replaced := make(chan struct{})
	f.gen++
	gen := f.gen
	f.to, f.replaced = to, replaced
	f.sent, f.told = 0, nil
	shown := f.trayShown
	f.queue = []event{{tray: &shown}, {statuses: &statuses}, {bridges: &bridges}}
	open := c.pending.reopen()
	for _, o := range open {
		f.queue = append(f.queue, event{open: &o})
	}
	n := c.pending.count()
	f.queue = append(f.queue, event{waiting: &n})
	for _, s := range f.shows {
		f.queue = append(f.queue, event{show: &s})
	}
	f.shows = nil
	f.running = true
	go f.deliver(to, gen)
	f.mu.Unlock()
	c.log.Debug("windows attached")
	c.windowsOpen()

	select {
	case <-ctx.Done():
	case <-replaced:
		return errReplaced
	}
	f.mu.Lock()
	if f.gen == gen { // gone unasked: what they may not have shown is told again
		for _, t := range f.told {
			if time.Since(t.at) < retellWithin {
				f.shows = append(f.shows, t.Show)
			}
		}
		f.to, f.queue, f.replaced, f.running, f.told = nil, nil, nil, false, nil
		f.gen++ // a delivery under way stops
	}
	f.mu.Unlock()
	c.log.Debug("windows detached")
	c.needUI()
	return ctx.Err()
}
