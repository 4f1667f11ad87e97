package demo

import "sync"

// linkBook remembers, per session, the URL elicitation needs_link last sent,
// so that the next call in that session can go through. The demo binds this
// state to the session alone; a real server must bind it to the
// authenticated user as well.
type linkBook struct {
	mu   sync.Mutex
	sent map[string]string // session id → elicitationId
}

func newLinkBook() *linkBook {
	return &linkBook{sent: make(map[string]string)}
}

// put records that session was sent the URL elicitation id.
func (b *linkBook) put(session, id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sent[session] = id
}

// take returns and forgets the elicitation last sent to session, so that the
// call after a success asks again and the demo can be repeated.
func (b *linkBook) take(session string) (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	id, ok := b.sent[session]
	delete(b.sent, session)
	return id, ok
}
