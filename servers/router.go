package servers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// Limits keep one flooding server from starving the others.
type Limits struct {
	Waiting   int // requests of one server waiting for the person at once
	PerMinute int // requests of one server accepted within any minute
}

// DefaultLimits are the limits when the configuration names none.
var DefaultLimits = Limits{Waiting: 5, PerMinute: 30}

// For returns the limits of a configured server: its own where it sets
// them, l's elsewhere.
func (l Limits) For(s config.Server) Limits {
	if s.MaxWaiting > 0 {
		l.Waiting = s.MaxWaiting
	}
	if s.MaxPerMinute > 0 {
		l.PerMinute = s.MaxPerMinute
	}
	return l
}

// ErrRateLimited is the cause of a request refused by Limits. It is
// answered with a JSON-RPC error, never cancel, which a server (or a
// bridge retrying an input_required call) takes for the person's answer
// and asks again at once.
var ErrRateLimited = errors.New("rate limited")

// Router turns requests from every connection into one queue the app takes
// elicitations from, in arrival order.
type Router struct {
	limits    Limits            // for servers without their own
	perServer map[string]Limits // set from servers.json
	log       *slog.Logger
	now       func() time.Time

	mu      sync.Mutex
	queue   []*Elicitation
	ready   chan struct{} // holds a token while queue is non-empty
	waiting map[string]int
	recent  map[string][]time.Time
	nextID  int
	urls    []*Elicitation // URL-mode elicitations the server may still complete, oldest first

	onRefused func(Refusal)
}

// maxOpenURLs bounds the URL elicitations remembered for completion.
const maxOpenURLs = 256

// NewRouter returns a router enforcing limits.
func NewRouter(limits Limits, log *slog.Logger) *Router {
	return &Router{
		limits: limits, perServer: map[string]Limits{}, log: log, now: time.Now,
		ready: make(chan struct{}, 1), waiting: map[string]int{}, recent: map[string][]time.Time{},
	}
}

// Ask routes one request from server who and blocks until the person answers
// or ctx ends (the server cancelled, disconnected or stopped waiting). A
// request over the server's limits is refused at once with a
// *jsonrpc.Error (jsonrpc.CodeServer), and logged.
func (r *Router) Ask(ctx context.Context, who Identity, p Params) (forms.Result, error) {
	e, err := r.submit(ctx, who, p)
	if errors.Is(err, ErrRateLimited) {
		r.log.Warn("elicitation refused", "server", who.Name, "reason", err)
		r.refuse(who, p, err)
		return forms.Result{}, &jsonrpc.Error{Code: jsonrpc.CodeServer, Message: err.Error()}
	}
	if err != nil {
		return forms.Result{}, err
	}
	defer r.done(who.Name)
	return e.wait()
}

func (r *Router) submit(ctx context.Context, who Identity, p Params) (*Elicitation, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	recent := r.recent[who.Name]
	for len(recent) > 0 && now.Sub(recent[0]) >= time.Minute {
		recent = recent[1:]
	}
	r.recent[who.Name] = recent
	limits, ok := r.perServer[who.Name]
	if !ok {
		limits = r.limits
	}
	if r.waiting[who.Name] >= limits.Waiting {
		return nil, fmt.Errorf("%w: %d requests already waiting", ErrRateLimited, r.waiting[who.Name])
	}
	if len(recent) >= limits.PerMinute {
		return nil, fmt.Errorf("%w: %d requests in the last minute", ErrRateLimited, len(recent))
	}
	r.recent[who.Name] = append(recent, now)
	r.waiting[who.Name]++
	e := r.track(ctx, who, p, now)
	r.queue = append(r.queue, e)
	select {
	case r.ready <- struct{}{}:
	default:
	}
	return e, nil
}

// track makes an elicitation and remembers a URL one for its completion;
// r.mu is held.
func (r *Router) track(ctx context.Context, who Identity, p Params, now time.Time) *Elicitation {
	r.nextID++
	e := newElicitation(ctx, strconv.Itoa(r.nextID), who, p, now)
	if e.Mode == ModeURL && e.URLID != "" {
		if len(r.urls) == maxOpenURLs {
			r.urls = r.urls[1:]
		}
		r.urls = append(r.urls, e)
	}
	return e
}

// Expect takes in a URL elicitation that came outside elicitation/create,
// in a tool call's -32042 error, so that its complete notification finds
// it. It is not queued and nobody waits for its reply: the person's answer
// is to retry the call.
func (r *Router) Expect(who Identity, p Params) *Elicitation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.track(context.Background(), who, p, r.now())
}

func (r *Router) done(server string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waiting[server]--
}

// Next returns the oldest elicitation not yet taken, waiting for one if
// need be, until ctx ends.
func (r *Router) Next(ctx context.Context) (*Elicitation, error) {
	for {
		r.mu.Lock()
		if len(r.queue) > 0 {
			e := r.queue[0]
			r.queue[0] = nil // the backing array must not keep it, and its request, alive
			r.queue = r.queue[1:]
			if len(r.queue) > 0 {
				select {
				case r.ready <- struct{}{}:
				default:
				}
			}
			r.mu.Unlock()
			return e, nil
		}
		r.mu.Unlock()
		select {
		case <-r.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Complete handles notifications/elicitation/complete from server: the URL
// elicitation with that elicitationId is over. Unknown and already completed
// ids are ignored, as the spec asks; the result says whether it matched.
func (r *Router) Complete(server, elicitationID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	matched := false
	for i, e := range r.urls {
		if e.Server.Name == server && e.URLID == elicitationID {
			r.urls = append(r.urls[:i], r.urls[i+1:]...)
			e.markCompleted()
			matched = true
			break
		}
	}
	return matched
}

// SetLimits gives one server limits of its own.
func (r *Router) SetLimits(server string, l Limits) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.perServer[server] = l
}
