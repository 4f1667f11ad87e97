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
	"github.com/elicitdesk/elicitdesk/servers/rpc"
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

// Router admits the requests of every connection within their servers'
// limits, and hands each it admits to whoever asks the person (OnAsked):
// it keeps none of them waiting, only the URL ones a server may still
// complete.
type Router struct {
	limits    Limits            // for servers without their own
	perServer map[string]Limits // set from servers.json
	log       *slog.Logger
	now       func() time.Time

	mu      sync.Mutex
	waiting map[string]int
	recent  map[string][]time.Time
	refused map[string][]time.Time // the refusals reported lately, by limited()
	nextID  int
	urls    []*Elicitation // URL-mode elicitations the server may still complete, oldest first

	onRefused func(Refusal)
	onAsked   func(*Elicitation)
}

// maxOpenURLs bounds the URL elicitations remembered for completion.
const maxOpenURLs = 256

// NewRouter returns a router enforcing limits.
func NewRouter(limits Limits, log *slog.Logger) *Router {
	return &Router{
		limits: limits, perServer: map[string]Limits{}, log: log, now: time.Now,
		waiting: map[string]int{}, recent: map[string][]time.Time{}, refused: map[string][]time.Time{},
	}
}

// OnAsked sets f to be given each request the router admits, on the
// asking connection's goroutine, which then waits for the request's
// Reply. Until f is set, requests wait unseen until their server gives up.
func (r *Router) OnAsked(f func(*Elicitation)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.onAsked = f
}

// Ask routes one request from server who and blocks until the person answers
// or ctx ends (the server cancelled, disconnected or stopped waiting). A
// request over the server's limits is refused at once with a
// *jsonrpc.Error (jsonrpc.CodeServer), and logged. Requests read in turns
// (see rpc.Turns) reach OnAsked's function in their turn.
func (r *Router) Ask(ctx context.Context, who Identity, p Params) (forms.Result, error) {
	arrived := rpc.WaitTurn(ctx)
	defer arrived()
	e, asked, err := r.submit(ctx, who, p)
	if errors.Is(err, ErrRateLimited) {
		r.log.Warn("elicitation refused", "server", who.Name, "reason", err)
		r.refuse(who, p, err)
		return forms.Result{}, &jsonrpc.Error{Code: jsonrpc.CodeServer, Message: err.Error()}
	}
	if err != nil {
		return forms.Result{}, err
	}
	defer r.done(who.limited())
	if asked != nil {
		asked(e)
	}
	arrived() // it waits in its place: the next may be asked
	return e.wait()
}

// submit admits a request within its server's limits, and returns it with
// whoever asks the person.
func (r *Router) submit(ctx context.Context, who Identity, p Params) (*Elicitation, func(*Elicitation), error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	key := who.limited()
	recent := r.recent[key]
	for len(recent) > 0 && now.Sub(recent[0]) >= time.Minute {
		recent = recent[1:]
	}
	r.recent[key] = recent
	limits, ok := r.perServer[key]
	if !ok {
		limits = r.limits
	}
	if r.waiting[key] >= limits.Waiting {
		return nil, nil, fmt.Errorf("%w: %d requests already waiting", ErrRateLimited, r.waiting[key])
	}
	if len(recent) >= limits.PerMinute {
		return nil, nil, fmt.Errorf("%w: %d requests in the last minute", ErrRateLimited, len(recent))
	}
	r.recent[key] = append(recent, now)
	r.waiting[key]++
	return r.track(ctx, who, p, now), r.onAsked, nil
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
// it. It is not handed to OnAsked's function and nobody waits for its
// reply: the person's answer is to retry the call.
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

// Complete handles notifications/elicitation/complete from server: the URL
// elicitation with that elicitationId is over, if server (name, machine
// and session alike) asked it. Unknown and already completed
// ids are ignored, as the spec asks; the result says whether it matched.
func (r *Router) Complete(server Identity, elicitationID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	matched := false
	for i, e := range r.urls {
		if e.Server.Name == server.Name && e.Server.Machine == server.Machine && e.Server.Session == server.Session && e.URLID == elicitationID {
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
