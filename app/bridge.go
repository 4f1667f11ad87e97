package app

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
)

// errBridgeGone is why a bridged request's window goes stale when the
// bridge stops waiting for it.
var errBridgeGone = errors.New("the host stopped waiting for it, or its bridge went away")

// errQuitting is why a request of a bridge that reached a quitting app
// was not asked; the endpoint, closing, sends no answer to it.
var errQuitting = errors.New("Elicit Desk is quitting")

// Elicit asks the person an elicitation a bridged server sent (raw, its
// params as sent) in session, exactly as one of the app's own servers':
// the same checks and refusals, recorded in the history, and the same
// limits by server name. It returns the ElicitResult to send back, as JSON;
// a refusal is the *wire.RPCError to send instead. When ctx ends (the
// bridge cancelled or went away) the window goes stale at once.
func (d *Desk) Elicit(ctx context.Context, session string, who servers.Identity, raw json.RawMessage) (json.RawMessage, error) {
	if d.ctx.Err() != nil {
		// The endpoint closes next, ending ctx; an answer now would read
		// as a refusal, while the bridge must see the app go away.
		<-ctx.Done()
		return nil, errQuitting
	}
	defer d.bridges.Asking(session)()
	// The request's own context, so that its cause says why in words.
	asking, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	defer cancel(nil)
	defer context.AfterFunc(ctx, func() { cancel(errBridgeGone) })()
	res, err := d.router.AskRaw(asking, who, raw)
	if err != nil {
		return nil, err
	}
	return resultJSON(res)
}

// resultJSON is the ElicitResult as the app's own connections send it:
// {"action":"accept","content":{…}}, {"action":"decline"} or
// {"action":"cancel"}.
func resultJSON(r forms.Result) (json.RawMessage, error) {
	return json.Marshal(r)
}

// Unshown keeps e, an elicitation of a bridged server that no window
// could show and the bridge answered cancel, in the history as the app's
// own entries are kept: while the app runs, it alone writes the history.
// It returns once the write is queued; an error says e was not taken, and
// the bridge keeps it itself.
func (d *Desk) Unshown(ctx context.Context, e history.Entry) error {
	select {
	case <-d.opened: // the endpoint serves before Start has opened the history
	case <-ctx.Done():
		return ctx.Err()
	case <-d.ctx.Done():
		return errQuitting
	}
	return d.keep(e)
}

// Bridge lists session s in the Servers window until ctx ends.
func (d *Desk) Bridge(ctx context.Context, s servers.Bridged) error {
	remove := d.bridges.Add(s)
	defer remove()
	select {
	case <-ctx.Done():
	case <-d.ctx.Done():
	}
	return nil
}

// Complete passes on a bridged server's notifications/elicitation/complete.
func (d *Desk) Complete(server, elicitationID string) {
	if !d.router.Complete(server, elicitationID) {
		d.log.Debug("completion of no open request", "server", server, "id", elicitationID)
	}
}

// Bridged lists the live bridged sessions.
func (d *Desk) Bridged() []servers.Bridged { return d.bridges.List() }
