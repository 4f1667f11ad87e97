package deskclient

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/gate"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
)

const (
	// unshownQueue is how many no-window entries wait for the writer.
	unshownQueue = 64
	// unshownStuck is how long the writer may take no entry from a full
	// queue before the entries waiting for room are dropped: a flood is
	// slowed to the pace of the disk, however slow, but a writer stuck on
	// a database another program holds does not keep servers waiting.
	// One write that prunes a full history took over 10 s on a loaded
	// machine.
	unshownStuck = 30 * time.Second
	// unshownHandoff bounds handing one entry to the running app.
	unshownHandoff = 2 * time.Second
	// FlushWait is how long an exiting bridge waits for the entries
	// still queued to be written.
	FlushWait = 3 * time.Second
)

// UnshownLog keeps each elicitation the bridge answered cancel because no
// window could show it in the history, as no-window: the person sees
// later what was refused in their name, never as their own Decline.
//
// History has one writer per person: each entry goes to the running app,
// which writes the history, and only when no app takes it is it written
// from this process, into the history file itself (never a file beside
// it), through one store, opened at the first such entry, from one
// goroutine fed by a bounded queue. Several bridges writing at once share
// the file through SQLite's locking.
type UnshownLog struct {
	path string
	app  func(context.Context, endpoint.Unshown) error // hands an entry to the running app; nil when there is none
	log  *slog.Logger

	queue   chan endpoint.Unshown
	mu      sync.Mutex         // guards took
	took    chan struct{}      // closed, and replaced, when the writer takes an entry
	senders gate.Gate          // Records under way; shut by Close
	closing context.Context    // ends when Close starts: waiting Records give up
	close   context.CancelFunc // ends closing
	abort   context.CancelFunc // ends the writer's context: Close waited long enough
	done    chan struct{}      // closed when the writer has ended
	dropped atomic.Int64       // entries not kept
	handed  atomic.Int64       // entries the running app took
}

// NewUnshownLog starts the writer of the history at path; app, when not
// nil, hands an entry to the running app, and fails when none takes it.
func NewUnshownLog(path string, app func(context.Context, endpoint.Unshown) error, log *slog.Logger) *UnshownLog {
	l := &UnshownLog{path: path, app: app, log: log, queue: make(chan endpoint.Unshown, unshownQueue), took: make(chan struct{}), done: make(chan struct{})}
	l.closing, l.close = context.WithCancel(context.Background())
	ctx, abort := context.WithCancel(context.Background())
	l.abort = abort
	go l.run(ctx)
	return l
}

// Counts says how many entries the running app took and how many were
// not kept at all, so far.
func (l *UnshownLog) Counts() (handed, dropped int64) { return l.handed.Load(), l.dropped.Load() }

// Record queues the entry u, as bridge.Options.Unshown asks. It waits
// for room in a full queue while the writer takes entries, but not once
// the writer has taken none for unshownStuck, nor once Close has begun.
func (l *UnshownLog) Record(u endpoint.Unshown) {
	if !l.senders.Enter() {
		l.drop("the bridge is exiting")
		return
	}
	defer l.senders.Leave()
	stuck := time.NewTimer(unshownStuck)
	defer stuck.Stop()
	for {
		l.mu.Lock()
		took := l.took
		l.mu.Unlock()
		select {
		case l.queue <- u:
			return
		case <-took:
			stuck.Reset(unshownStuck)
		case <-stuck.C:
			l.drop("the history stayed busy while more waited to be written")
			return
		case <-l.closing.Done():
			l.drop("the bridge is exiting")
			return
		}
	}
}

// taken tells the Records waiting for room that the writer took an entry.
func (l *UnshownLog) taken() {
	l.mu.Lock()
	defer l.mu.Unlock()
	close(l.took)
	l.took = make(chan struct{})
}

// Close writes the entries still queued, waiting at most wait for them,
// and closes the history. It says how many entries the app took and how
// many were not kept.
func (l *UnshownLog) Close(wait time.Duration) {
	l.senders.Shut()
	l.close()
	l.senders.Wait()
	close(l.queue)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-l.done:
	case <-t.C:
		l.abort() // the rest are dropped; a write under way ends soon
	}
	handed, dropped := l.Counts()
	if dropped > 0 {
		l.log.Warn("elicitations no window could show were not kept in the history", "count", dropped)
	}
	l.log.Debug("elicitations no window could show, kept by the running app", "count", handed)
}

// drop counts an entry not kept, and says why: the first time as a
// warning, then only with -v, as Close tells the count.
func (l *UnshownLog) drop(why string) {
	level := slog.LevelDebug
	if l.dropped.Add(1) == 1 {
		level = slog.LevelWarn
	}
	l.log.Log(context.Background(), level, "an elicitation no window could show is not kept in the history", "why", why)
}

// run writes the queued entries until the queue closes.
func (l *UnshownLog) run(ctx context.Context) {
	defer close(l.done)
	var store *history.Store
	defer func() {
		if store != nil {
			store.Close()
		}
	}()
	for u := range l.queue {
		l.taken()
		if ctx.Err() != nil {
			l.drop("the bridge is exiting")
			continue
		}
		if l.handOff(ctx, u) {
			continue
		}
		if store == nil {
			s, err := history.Open(l.path, l.log, history.Options{})
			if err != nil {
				l.drop(err.Error()) // the next entry tries again
				continue
			}
			store = s
		}
		if _, err := store.Add(ctx, core.UnshownEntry(u)); err != nil {
			l.drop(err.Error())
		}
	}
}

// handOff gives u to the running app, and reports whether it took it.
func (l *UnshownLog) handOff(ctx context.Context, u endpoint.Unshown) bool {
	if l.app == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, unshownHandoff)
	defer cancel()
	err := l.app(ctx, u)
	if err != nil {
		l.log.Debug("the app did not take the unshown elicitation; the bridge keeps it", "err", err)
		return false
	}
	l.handed.Add(1)
	return true
}
