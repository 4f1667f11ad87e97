package servers

import (
	"slices"
	"sync"
	"time"
)

// Bridged is one host's session with one server through elicitdesk
// bridge, as the app lists it.
type Bridged struct {
	ID       string   // the bridge's; unique among live sessions
	Server   Identity // Name and Target as the bridge was given them; Reported and Host as the peers said
	Protocol string   // the negotiated revision, if known
	Since    time.Time
	Asked    int // elicitations of the session the app was asked
	Open     int // of those, the ones not answered yet
}

// Bridges is the live list of bridged sessions. Its methods may be called
// from any goroutine; onChange runs after each change, outside its lock,
// on the changing goroutine.
type Bridges struct {
	onChange func()

	mu     sync.Mutex
	live   []*Bridged        // in the order they came
	counts map[string]*count // by session id, listed or not yet
}

// count is the requests of one session id. It is kept apart from the
// listing: a session's listing and its first request reach the app on
// their own, in either order.
type count struct{ asked, open int }

// NewBridges returns an empty list that calls onChange (if not nil) after
// each change.
func NewBridges(onChange func()) *Bridges {
	return &Bridges{onChange: onChange, counts: map[string]*count{}}
}

// Add lists session b and returns the function that takes that very entry
// off the list, which a newer session reusing its ID does not undo.
func (l *Bridges) Add(b Bridged) (remove func()) {
	e := &b
	l.mu.Lock()
	l.live = append(l.live, e)
	l.mu.Unlock()
	l.changed()
	return func() { l.remove(func(x *Bridged) bool { return x == e }) }
}

// Remove takes the sessions with id off the list.
func (l *Bridges) Remove(id string) {
	l.remove(func(x *Bridged) bool { return x.ID == id })
}

func (l *Bridges) remove(match func(*Bridged) bool) {
	l.mu.Lock()
	n := len(l.live)
	var gone []string
	l.live = slices.DeleteFunc(l.live, func(b *Bridged) bool {
		if match(b) {
			gone = append(gone, b.ID)
			return true
		}
		return false
	})
	for _, id := range gone {
		l.forget(id)
	}
	changed := len(l.live) != n
	l.mu.Unlock()
	if changed {
		l.changed()
	}
}

// Asking counts one elicitation of session id, open until done is
// called. A session listed after its request came counts it too.
func (l *Bridges) Asking(id string) (done func()) {
	l.mu.Lock()
	c := l.counts[id]
	if c == nil {
		c = &count{}
		l.counts[id] = c
	}
	c.asked++
	c.open++
	l.mu.Unlock()
	l.changed()
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			c.open--
			l.forget(id)
			l.mu.Unlock()
			l.changed()
		})
	}
}

// forget drops the count of id once nothing lists or asks through it;
// l.mu is held.
func (l *Bridges) forget(id string) {
	c := l.counts[id]
	if c != nil && c.open == 0 && !slices.ContainsFunc(l.live, func(b *Bridged) bool { return b.ID == id }) {
		delete(l.counts, id)
	}
}

// List is a copy of the live sessions, oldest first.
func (l *Bridges) List() []Bridged {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Bridged, len(l.live))
	for i, b := range l.live {
		out[i] = *b
		if c := l.counts[b.ID]; c != nil {
			out[i].Asked, out[i].Open = c.asked, c.open
		}
	}
	return out
}

func (l *Bridges) changed() {
	if l.onChange != nil {
		l.onChange()
	}
}
