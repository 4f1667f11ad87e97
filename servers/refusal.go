package servers

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// Refusal is a request answered without asking the person: over its
// server's limits, or unusable as sent. The app keeps it in its history so
// the person can see what never reached them.
type Refusal struct {
	Server   Identity
	Message  untrusted.Text
	Mode     Mode
	Schema   json.RawMessage
	URL      untrusted.Text
	Err      error // wraps ErrRateLimited, or is the *jsonrpc.Error sent back
	Received time.Time
}

// OnRefused sets f to be called for each refusal, on the asking
// connection's goroutine; f must not block.
func (r *Router) OnRefused(f func(Refusal)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.onRefused = f
}

// refusalsReported bounds the refusals reported a minute for one server
// (or machine): one that floods refusals must not fill the history. As
// many as DefaultLimits admits requests, whatever a server's own limits:
// a server limited to nothing has its refusals reported too.
const refusalsReported = 30

// refuse reports a refused request to the OnRefused callback, within
// refusalsReported a minute for its server (or machine); the rest are
// refused unreported.
func (r *Router) refuse(who Identity, p Params, err error) {
	r.mu.Lock()
	f := r.onRefused
	now := r.now()
	key := who.limited()
	recent := slices.DeleteFunc(r.refused[key], func(t time.Time) bool { return now.Sub(t) >= time.Minute })
	report := len(recent) < refusalsReported
	if report {
		recent = append(recent, now)
	}
	r.refused[key] = recent
	r.mu.Unlock()
	if f != nil && report {
		f(Refusal{Server: who, Message: p.Message, Mode: p.Mode, Schema: p.Schema, URL: p.URL, Err: err, Received: now})
	}
}

// AskRaw is Ask for elicitation parameters as sent: it checks them with
// ParseParams and refuses what cannot be asked, reporting it to OnRefused
// and returning the *jsonrpc.Error to send back; the rest it asks with
// Ask. Every connection, the app's own and the bridge's, asks through it.
func (r *Router) AskRaw(ctx context.Context, who Identity, raw json.RawMessage) (forms.Result, error) {
	p, err := ParseParams(raw)
	if err != nil {
		r.log.Warn("elicitation refused", "server", who.Name, "reason", err)
		r.refuse(who, LooseParams(raw), err)
		return forms.Result{}, err
	}
	return r.Ask(ctx, who, p)
}

// RefuseUnread reports an elicitation request that could not be read at
// all (too large to keep, not JSON), refused with err.
func (r *Router) RefuseUnread(who Identity, err *jsonrpc.Error) {
	r.log.Warn("elicitation refused", "server", who.Name, "reason", err)
	r.refuse(who, Params{}, err)
}

// LooseParams reads what it can of parameters ParseParams refused, so a
// refusal still says what was asked.
func LooseParams(raw json.RawMessage) Params {
	if len(raw) > MaxParams {
		return Params{}
	}
	var w wireParams
	if json.Unmarshal(raw, &w) != nil {
		return Params{}
	}
	p := Params{Mode: Mode(w.Mode), Schema: w.RequestedSchema, URL: w.URL, ElicitationID: w.ElicitationID}
	if w.Message != nil {
		p.Message = *w.Message
	}
	return p
}
