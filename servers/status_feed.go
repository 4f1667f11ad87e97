package servers

import "sync"

// statusFeed passes status changes on to a callback in the order they
// happen, from one goroutine at a time and outside the manager's locks, so
// the callback may call back into the manager. It also wakes those waiting
// for the next change.
type statusFeed struct {
	onStatus func(Status) // may be nil

	mu         sync.Mutex
	queue      []Status
	running    bool           // a goroutine is delivering the queue
	changed    chan struct{}  // closed at the next change
	delivering sync.WaitGroup // the delivering goroutine, for drain
}

func newStatusFeed(onStatus func(Status)) *statusFeed {
	return &statusFeed{onStatus: onStatus, changed: make(chan struct{})}
}

// push queues st for the callback and wakes the waiters; it never blocks
// on the callback.
func (f *statusFeed) push(st Status) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.woken()
	if f.onStatus == nil {
		return
	}
	f.queue = append(f.queue, st)
	if !f.running {
		f.running = true
		f.delivering.Add(1)
		go f.deliver()
	}
}

// wake wakes the waiters for a change that is no one server's status:
// servers taken off the list.
func (f *statusFeed) wake() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.woken()
}

// woken closes changed and makes the next; f.mu is held.
func (f *statusFeed) woken() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// deliver calls the callback for each queued status, then ends.
func (f *statusFeed) deliver() {
	defer f.delivering.Done()
	for {
		f.mu.Lock()
		if len(f.queue) == 0 {
			f.running = false
			f.mu.Unlock()
			return
		}
		st := f.queue[0]
		f.queue = f.queue[1:]
		f.mu.Unlock()
		f.onStatus(st)
	}
}

// next is closed at the next change.
func (f *statusFeed) next() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.changed
}

// drain waits until every change pushed so far has been delivered.
func (f *statusFeed) drain() { f.delivering.Wait() }
