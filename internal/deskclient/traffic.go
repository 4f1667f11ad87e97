package deskclient

import (
	"context"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// How a bridge hands the app its sessions' traffic: in batches of at most
// trafficBatch entries, at most trafficDelay after the first of a batch,
// from a queue of at most trafficQueue. A session that floods its server
// loses entries, never time: the app keeps only the latest anyway.
const (
	trafficBatch = 256
	trafficDelay = 100 * time.Millisecond
	trafficQueue = 4096
)

// Traffic returns where a tap of session's server link hands its entries
// (traffic.Tap's note, which never blocks): they go to the running app in
// batches, over the connection the bridge has for the session's listing.
// It never dials or starts the app; what cannot go is dropped. stop sends
// what is left, and ends.
func (d *Desk) Traffic(session string) (note func(traffic.Entry, []byte), stop func()) {
	queue := make(chan traffic.Entry, trafficQueue)
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var batch []traffic.Entry
		var due <-chan time.Time // nil while the batch is empty: an idle bridge does not wake
		send := func() {
			d.mu.Lock()
			c := d.client
			d.mu.Unlock()
			if c != nil && len(batch) > 0 {
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				c.BridgeTraffic(ctx, endpoint.BridgeTraffic{Session: session, Entries: batch})
				cancel()
			}
			batch, due = batch[:0], nil
		}
		for {
			select {
			case e := <-queue:
				if len(batch) == 0 {
					due = time.After(trafficDelay)
				}
				if batch = append(batch, e); len(batch) == trafficBatch {
					send()
				}
			case <-due:
				send()
			case <-quit:
				for len(queue) > 0 && len(batch) < trafficBatch {
					batch = append(batch, <-queue)
				}
				send()
				return
			}
		}
	}()
	note = func(e traffic.Entry, _ []byte) {
		select {
		case queue <- e:
		default:
		}
	}
	return note, func() { close(quit); <-done }
}
