package rpc

import (
	"log/slog"
	"time"

	"golang.org/x/time/rate"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// Unreadable counts the messages a link could not read and logs them now
// and then, the first few and then one a minute with the count, and the
// count once more at the link's end (Ended): a server that prints junk on
// its stdout would otherwise write the log a line for each of its lines.
// One goroutine, the link's reader, uses it.
type Unreadable struct {
	n, logged int
	warn      rate.Sometimes
}

// NewUnreadable returns a count of none.
func NewUnreadable() *Unreadable {
	return &Unreadable{warn: rate.Sometimes{First: 5, Interval: time.Minute}}
}

// Warn counts bad and, when it is time, logs msg about it with the count.
func (u *Unreadable) Warn(log *slog.Logger, msg string, bad *link.BadMessage) {
	u.n++
	u.warn.Do(func() {
		u.logged = u.n
		log.Warn(msg, "size", bad.Size, "method", bad.Method, "err", bad.Err, "unreadable", u.n)
	})
}

// Ended logs how many messages could not be read in all, when the link
// ended with some not logged.
func (u *Unreadable) Ended(log *slog.Logger) {
	if u.n > u.logged {
		log.Warn("messages that could not be read, in all", "unreadable", u.n)
	}
}
