package app

import (
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/servers"
)

// request is one elicitation from arrival until it is answered or goes
// stale. It belongs to the UI goroutine: every field is read and written
// there.
type request struct {
	*servers.Elicitation
	win   window // nil while the request waits in the tray menu
	ended bool   // answered or stale: nothing more is sent or recorded
	// notifying: a notification was sent and is still wanted.
	notifying bool
	onEnd     func() // the Desk's bookkeeping, once
	onClosed  func() // after its window closed, for links a tool call waits on
	coreID    string // the core's id, "" for a link of the windows' own tool call
}

// window is what a request's window does for its request.
type window interface {
	// show shows the window or raises it; with the keyboard when the
	// person asked for it.
	show(by opener)
	// stale turns the window read-only, saying why.
	stale(reason string)
	// tick updates how long ago the request arrived.
	tick(now time.Time)
	close()
}

// reply sends the person's answer; the core records it. It reports whether the
// answer went out: a request that went stale in the meantime sends
// nothing.
func (r *request) reply(res forms.Result) bool {
	if r.ended {
		return false
	}
	if err := r.Reply(res); err != nil {
		r.goStale(core.StaleReason(r.Context()))
		return false
	}
	r.end()
	return true
}

// goStale ends a request the server no longer waits for.
func (r *request) goStale(reason string) {
	if r.ended {
		return
	}
	r.end()
	if r.win != nil {
		r.win.stale(reason)
	}
}

func (r *request) end() {
	r.ended = true
	if r.onEnd != nil {
		r.onEnd()
	}
}

// coreID is the context key of the core's id for a request, which the
// local router's elicitation carries from the core's Request.
type coreID struct{}
