package servers

import (
	"encoding/json"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/untrusted"
	"github.com/elicitdesk/elicitdesk/servers/wire"
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
	Err      error // wraps ErrRateLimited, or is the *wire.RPCError sent back
	Received time.Time
}

// OnRefused sets f to be called for each refusal, on the asking
// connection's goroutine; f must not block.
func (r *Router) OnRefused(f func(Refusal)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.onRefused = f
}

// refuse reports a refused request to the OnRefused callback.
func (r *Router) refuse(who Identity, p Params, err error) {
	r.mu.Lock()
	f := r.onRefused
	now := r.now()
	r.mu.Unlock()
	if f != nil {
		f(Refusal{Server: who, Message: p.Message, Mode: p.Mode, Schema: p.Schema, URL: p.URL, Err: err, Received: now})
	}
}

// looseParams reads what it can of parameters ParseParams refused, so a
// refusal still says what was asked.
func looseParams(raw json.RawMessage) Params {
	if len(raw) > wire.MaxParams {
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
