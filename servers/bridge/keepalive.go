package bridge

import (
	"context"
	"encoding/json"
	"time"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// keepAlive sends, until the returned stop is called or ctx ends, a
// progress notification every KeepAlive for each of the calls that
// carries a progressToken: a host that resets its timeout on progress
// then waits for as long as the person takes.
func (s *Session) keepAlive(ctx context.Context, calls []*call) (stop func()) {
	var tokens []*call
	for _, c := range calls {
		if c.token != nil {
			tokens = append(tokens, c)
		}
	}
	if len(tokens) == 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(s.opts.KeepAlive)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				for _, c := range tokens {
					s.toHost(notification("notifications/progress", map[string]any{
						"progressToken": c.token,
						"progress":      s.nextProgress(c.token),
						"message":       "Waiting for the person to answer in Elicit Desk",
					}, c.hostID))
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}

// nextProgress returns a progress value above any the host has seen for
// token, as the spec asks progress to increase.
func (s *Session) nextProgress(token json.RawMessage) float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := link.IDKey(token)
	s.shown[key]++
	return s.shown[key]
}

// sawProgress notes the progress the server reported, so the bridge's own
// notifications continue above it.
func (s *Session) sawProgress(m link.Message) {
	p := gjson.GetBytes(m.Raw, "params")
	key := link.IDKey(json.RawMessage(p.Get("progressToken").Raw))
	s.mu.Lock()
	defer s.mu.Unlock()
	if v := p.Get("progress").Float(); v > s.shown[key] {
		s.shown[key] = v
	}
}
