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
}

// Bridges is the live list of bridged sessions. Its methods may be called
// from any goroutine; onChange runs after each change, outside its lock,
// on the changing goroutine.
type Bridges struct {
	onChange func()

	mu   sync.Mutex
	live []*Bridged // in the order they came
}

// NewBridges returns an empty list that calls onChange (if not nil) after
// each change.
func NewBridges(onChange func()) *Bridges {
	return &Bridges{onChange: onChange}
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
	l.live = slices.DeleteFunc(l.live, match)
	changed := len(l.live) != n
	l.mu.Unlock()
	if changed {
		l.changed()
	}
}

// Asked counts one elicitation of session id; an id not listed is ignored.
func (l *Bridges) Asked(id string) {
	l.mu.Lock()
	var found bool
	for _, b := range l.live {
		if b.ID == id {
			b.Asked++
			found = true
		}
	}
	l.mu.Unlock()
	if found {
		l.changed()
	}
}

// List is a copy of the live sessions, oldest first.
func (l *Bridges) List() []Bridged {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Bridged, len(l.live))
	for i, b := range l.live {
		out[i] = *b
	}
	return out
}

func (l *Bridges) changed() {
	if l.onChange != nil {
		l.onChange()
	}
}
