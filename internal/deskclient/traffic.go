package deskclient

import (
	"context"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// How a bridge hands the app its sessions' traffic: in batches of at most
// trafficBatch entries or trafficBatchBytes of bodies and headers, at most
// trafficDelay after the first of a batch, from a queue of at most
// trafficQueue entries and trafficQueueBytes of them. A session that
// floods its server loses entries and bodies, never time: the app keeps
// only the latest anyway. A body over maxBody is not sent: a batch must
// stay within one endpoint message, nor are the headers of an HTTP
// response over maxHeader.
const (
	trafficBatch      = 256
	trafficBatchBytes = 1 << 20
	trafficDelay      = 100 * time.Millisecond
	trafficQueue      = 4096
	trafficQueueBytes = 16 << 20
	maxBody           = 4 << 20
	maxHeader         = 64 << 10
)

// noted is an entry and, while the app keeps them, its message and the
// headers of the HTTP response it came in, size bytes the two.
type noted struct {
	e      traffic.Entry
	body   json.RawMessage
	header http.Header
	size   int
}

// Traffic returns where a tap of session's server link hands its entries
// (traffic.Tap's note, which never blocks): they go to the running app in
// batches, over the connection the bridge has for the session's listing.
// It never dials or starts the app; what cannot go is dropped. stop sends
// what is left, and ends.
func (d *Desk) Traffic(session string) (note func(traffic.Entry, link.Message), stop func()) {
	queue := make(chan noted, trafficQueue)
	var queued atomic.Int64 // bytes of the bodies in queue
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var batch endpoint.BridgeTraffic
		batch.Session = session
		size := 0                // of the batch's bodies
		var due <-chan time.Time // nil while the batch is empty: an idle bridge does not wake
		send := func() {
			if c := d.current(); c != nil && len(batch.Entries) > 0 {
				if size == 0 {
					batch.Bodies, batch.Headers = nil, nil
				}
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				c.BridgeTraffic(ctx, batch)
				cancel()
			}
			batch.Entries, batch.Bodies, batch.Headers, size, due = batch.Entries[:0], batch.Bodies[:0], batch.Headers[:0], 0, nil
		}
		add := func(n noted) {
			queued.Add(-int64(n.size))
			if len(batch.Entries) == 0 {
				due = time.After(trafficDelay)
			}
			batch.Entries, batch.Bodies, batch.Headers = append(batch.Entries, n.e), append(batch.Bodies, n.body), append(batch.Headers, n.header)
			if size += n.size; len(batch.Entries) == trafficBatch || size >= trafficBatchBytes {
				send()
			}
		}
		for {
			select {
			case n := <-queue:
				add(n)
			case <-due:
				send()
			case <-quit:
				for len(queue) > 0 {
					add(<-queue)
				}
				send()
				return
			}
		}
	}()
	note = func(e traffic.Entry, m link.Message) {
		n := noted{e: e}
		if raw := m.Raw; len(raw) <= maxBody && d.capturing() {
			n.size = len(raw)
			var h http.Header
			if m.HTTP != nil {
				if hb := headerBytes(m.HTTP.Header); hb <= maxHeader {
					h, n.size = m.HTTP.Header, n.size+hb
				}
			}
			if queued.Add(int64(n.size)) <= trafficQueueBytes {
				n.body, n.header = raw, h
			} else {
				queued.Add(-int64(n.size)) // over the queue's bytes: the entry goes without
				n.size = 0
			}
		}
		select {
		case queue <- n:
		default:
			queued.Add(-int64(n.size))
		}
	}
	return note, func() { close(quit); <-done }
}

// current is the client of the running app, nil when there is none.
func (d *Desk) current() *endpoint.Client {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.client
}

// capturing says whether the running app keeps bridged messages
// themselves.
func (d *Desk) capturing() bool {
	c := d.current()
	return c != nil && c.Capturing()
}

// headerBytes is about the size h takes in JSON.
func headerBytes(h http.Header) int {
	n := 0
	for k, vs := range h {
		n += len(k) + 4
		for _, v := range vs {
			n += len(v) + 3
		}
	}
	return n
}
