package core

import (
	"context"
	"errors"
	"sync"

	"github.com/elicitdesk/elicitdesk/servers"
)

// Events is what a UI is told, in order, one call at a time and outside
// the core's locks. Each method must return soon: it holds up the next.
type Events interface {
	// Request: a request waits for the person. A UI that attaches is
	// given every pending one, and may be given one twice.
	Request(Request)
	// Ended: request id no longer waits. answered: a UI answered it;
	// otherwise cause is why it went stale, as StaleReason reads it. An
	// id the UI does not know is ignored.
	Ended(id string, answered bool, cause string)
	// Completed: a URL-mode request's server reported it done.
	Completed(server, elicitationID string)
	// Servers: where each configured server stands now, in name order.
	Servers([]servers.Status)
	// Bridges: the live bridged sessions now.
	Bridges([]servers.Bridged)
	// HistoryChanged: entries were written or deleted.
	HistoryChanged()
	// Show: the person asked for a window, from the tray, a notification
	// or a second start.
	Show(Show)
	// Quit: the core quits; the UI closes its windows and exits.
	Quit()
}

// Show names a window the person asked for.
type Show struct {
	Window  Window `json:"window"`
	Server  string `json:"server,omitempty"`  // WindowServers: the server to select
	Request string `json:"request,omitempty"` // WindowRequest: the request's id
	// Own: the core asks by itself (a first start, no tray host), not the
	// person; the window waits until no request is left, and takes no
	// keyboard.
	Own bool `json:"own,omitempty"`
}

// Window is one of the UI's windows.
type Window string

const (
	WindowFront    Window = "front" // the oldest request's, or Servers: a second start
	WindowRequest  Window = "request"
	WindowServers  Window = "servers"
	WindowHosts    Window = "hosts"
	WindowHistory  Window = "history"
	WindowSettings Window = "settings"
	WindowWelcome  Window = "welcome"
	WindowAbout    Window = "about"
	WindowHelp     Window = "help" // the README, in the browser
	WindowQuit     Window = "quit" // the quit question, while requests wait
)

// event is one thing to tell the UI; exactly one field is set.
type event struct {
	request   *Request
	ended     *ended
	completed *completion
	statuses  *[]servers.Status // pointers: an empty list is news too
	bridges   *[]servers.Bridged
	history   bool
	show      *Show
	quit      bool
}

type ended struct {
	ID       string `json:"id"`
	Answered bool   `json:"answered,omitempty"`
	Cause    string `json:"cause,omitempty"`
}

type completion struct {
	Server        string `json:"server"`
	ElicitationID string `json:"elicitationId"`
}

// tell calls the method of ev's kind.
func (ev event) tell(to Events) {
	switch {
	case ev.request != nil:
		to.Request(*ev.request)
	case ev.ended != nil:
		to.Ended(ev.ended.ID, ev.ended.Answered, ev.ended.Cause)
	case ev.completed != nil:
		to.Completed(ev.completed.Server, ev.completed.ElicitationID)
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
	}
}

// feed passes events to the attached UI in order, from one goroutine at a
// time and outside its lock. Without a UI, events are dropped but for
// Show, which waits for the next one: the state is told afresh at attach.
type feed struct {
	mu       sync.Mutex
	to       Events // nil while no UI is attached
	gen      int    // which attach to is
	replaced chan struct{}
	queue    []event
	shows    []Show // asked for while no UI was attached
	running  bool
}

func (f *feed) push(ev event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.to == nil {
		if ev.show != nil {
			f.shows = append(f.shows, *ev.show)
		}
		return
	}
	f.queue = append(f.queue, ev)
	if !f.running {
		f.running = true
		go f.deliver(f.to, f.gen)
	}
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
		f.mu.Unlock()
		ev.tell(to)
	}
}

// waitingShows reports whether the person asked for a window no UI has
// been told of.
func (f *feed) waitingShows() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.shows) > 0
}

// errReplaced ends an Attach when a newer UI attaches.
var errReplaced = errors.New("another UI attached")

// Attach makes to the UI: it is told the servers, the bridged sessions and
// every pending request, then each event as it comes, until ctx ends or
// another UI attaches (errReplaced). When the core quits, to is told Quit
// and Attach returns once ctx ends.
func (c *Core) Attach(ctx context.Context, to Events) error {
	f := &c.feed
	f.mu.Lock()
	if f.replaced != nil {
		close(f.replaced)
	}
	replaced := make(chan struct{})
	f.gen++
	gen := f.gen
	f.to, f.replaced = to, replaced
	// The state afresh, first: an event pushed meanwhile may repeat it.
	statuses, bridges := c.manager.Statuses(), c.bridges.List()
	f.queue = []event{{statuses: &statuses}, {bridges: &bridges}}
	for _, w := range c.pending.all() {
		f.queue = append(f.queue, event{request: &w.Request})
	}
	for _, s := range f.shows {
		f.queue = append(f.queue, event{show: &s})
	}
	f.shows = nil
	f.running = true
	go f.deliver(to, gen)
	f.mu.Unlock()
	c.log.Debug("UI attached")
	c.windowsOpen()

	select {
	case <-ctx.Done():
	case <-replaced:
		return errReplaced
	}
	f.mu.Lock()
	if f.gen == gen {
		f.to, f.queue, f.replaced, f.running = nil, nil, nil, false
		f.gen++ // a delivery under way stops
	}
	f.mu.Unlock()
	c.log.Debug("UI detached")
	c.needUI()
	return ctx.Err()
}

// attached reports whether a UI is attached.
func (f *feed) attached() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.to != nil
}
