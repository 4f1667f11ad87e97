package endpoint

import (
	"context"
	"net"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/lines"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// writeTimeout bounds writing one message: a peer that reads nothing for
// that long is dropped rather than holding its requests' goroutines.
const writeTimeout = 10 * time.Second

// wire is the link both sides of the endpoint speak over: the project's
// one framing (link.Lines, one message per line, reads bounded by
// MaxMessage) on a connection, with the endpoint's bounds on writes too.
type wire struct {
	*link.Lines
	c   net.Conn
	wmu sync.Mutex // one message written at a time, with its deadline
}

func newWire(c net.Conn) *wire {
	return &wire{Lines: link.NewLines(c, c), c: c}
}

// Write sends m. A message over MaxMessage is refused with a
// *lines.TooLong before anything is written. The write stops when ctx
// ends or after writeTimeout; a message cut short breaks the framing for
// every call, so the connection is closed then, as after any failed write.
func (w *wire) Write(ctx context.Context, m link.Message) error {
	if len(m.Raw) > MaxMessage {
		return &lines.TooLong{Head: m.Raw[:lines.HeadSize], Size: len(m.Raw), Max: MaxMessage}
	}
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	w.wmu.Lock()
	defer w.wmu.Unlock()
	if ctx.Err() != nil { // given up while another message was written
		return context.Cause(ctx)
	}
	interrupted := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(interrupted)
		w.c.SetWriteDeadline(time.Now())
	})
	err := w.Lines.Write(context.WithoutCancel(ctx), m) // the deadline stops it
	if !stop() {
		<-interrupted
		w.c.SetWriteDeadline(time.Time{})
	}
	if err != nil {
		w.c.Close()
	}
	return err
}
