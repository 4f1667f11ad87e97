package bridge

import (
	"encoding/json"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// urlRequired reports whether a response is a -32042
// URLElicitationRequiredError.
func urlRequired(m link.Message) bool {
	return gjson.GetBytes(m.Raw, "error.code").Int() == jsonrpc.CodeURLRequired
}

// answerURLRequired answers a -32042 error for the host: it shows each
// URL elicitation the error carries, waits for the server to report each
// complete, then retries the host's request and gives the host that
// result. If the person does not go ahead, or the host takes the
// elicitations itself, the host gets the error as sent.
func (s *Session) answerURLRequired(c *call, m link.Message) {
	ctx, done := s.working(c)
	defer done()
	for _, e := range gjson.GetBytes(m.Raw, "error.data.elicitations").Array() {
		id := e.Get("elicitationId").String()
		complete := make(chan struct{})
		s.mu.Lock()
		s.urls[id] = complete
		s.ourURLs[id] = true
		s.mu.Unlock()
		answer, err := s.ask(ctx, json.RawMessage(e.Raw), []*call{c})
		if err != nil || gjson.GetBytes(answer, "action").String() != "accept" {
			s.forget(id)
			if ctx.Err() == nil {
				s.finish(c, m)
			}
			return
		}
		select {
		case <-complete:
		case <-ctx.Done():
			s.forget(id)
			return
		}
	}
	res, err := s.retry(ctx, c, json.RawMessage(gjson.GetBytes(c.req.Raw, "params").Raw))
	if err != nil {
		return
	}
	s.finish(c, res)
}

// forget stops waiting for a URL elicitation's completion.
func (s *Session) forget(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.urls, id)
	delete(s.ourURLs, id)
}
