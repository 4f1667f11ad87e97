package rpc

import (
	"log/slog"
	"time"

	"golang.org/x/time/rate"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// Dropped counts the messages a link could not take (ones it could not
// read, requests under an id in use) and logs them now and then, the first
// few and then one a minute with the count, and the count once more at the
// link's end (Ended): a server that prints junk on its stdout would
// otherwise write the log a line for each of its lines. One goroutine, the
// link's reader, uses it.
type Dropped struct {
	n, logged int
	warn      rate.Sometimes
}

// NewDropped returns a count of none.
func NewDropped() *Dropped {
	return &Dropped{warn: rate.Sometimes{First: 5, Interval: time.Minute}}
}

// Warn counts bad and, when it is time, logs msg about it with the count.
func (u *Dropped) Warn(log *slog.Logger, msg string, bad *link.BadMessage) {
	u.n++
	u.warn.Do(func() {
		u.logged = u.n
		args := []any{"size", bad.Size, "method", bad.Method, "err", bad.Err, "dropped", u.n}
		if bad.ID == nil && bad.Method == "" && len(bad.Head) > 0 { // no JSON-RPC message: a server's own words on its stdout, which its author wants to see; an answer's may be a person's
			args = append(args, "line", untrusted.Text(bad.Head).Short(80))
		}
		log.Warn(msg, args...)
	})
}

// Ended logs msg with how many there were in all, when the link ended
// with some not logged.
func (u *Dropped) Ended(log *slog.Logger, msg string) {
	if u.n > u.logged {
		log.Warn(msg, "dropped", u.n)
	}
}
