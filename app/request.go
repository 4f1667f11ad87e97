package app

import (
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/servers"
)

// request is one of the core's requests with a window, from the core's
// Open until its window closes. It belongs to the UI goroutine: every
// field is read and written there.
type request struct {
	core.Request
	servers.Params        // parsed from the Request's params
	title          string // its window's, told apart from the other open windows'
	win            window
	ended          bool // answered or stale: nothing more is sent
	sending        bool // an answer is on its way to the core
	taken          bool // the core took the answer
	// answer sends an answer to the core and runs sent once it took it.
	answer    func(r *request, res forms.Result, sent func())
	completed chan struct{} // closed when the server says a URL step is done, or went away
	gone      bool          // the server went away instead, set before completed closes
	more      *waitLine     // the requests without a window, atop its window
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

// reply sends the person's answer; the core checks and records it, and
// sent runs once it did. A request that ended, or whose answer is on its
// way, sends nothing more.
func (r *request) reply(res forms.Result, sent func()) {
	if r.ended || r.sending {
		return
	}
	r.sending = true
	r.answer(r, res, func() {
		r.ended, r.taken, r.sending = true, true, false
		sent()
	})
}

// goStale ends a request the server no longer waits for.
func (r *request) goStale(reason string) {
	if r.ended {
		return
	}
	r.ended = true
	r.win.stale(reason)
}

// complete notes that the server said a URL step is done, or, gone, went
// away after the person's accept without saying it.
func (r *request) complete(gone bool) {
	select {
	case <-r.completed:
	default:
		r.gone = gone
		close(r.completed)
	}
}
