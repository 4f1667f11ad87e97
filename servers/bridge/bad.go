package bridge

import (
	"errors"
	"fmt"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// badFromHost answers what the host sent and the bridge cannot pass on: a
// request gets an error saying why, an answer to the server's request
// goes upstream as an error in its place; anything else is only logged,
// as there is nobody to answer.
func (s *Session) badFromHost(bad *link.BadMessage) {
	s.unreadableHost.Warn(s.opts.Log, "the host sent a message that cannot be passed on", bad)
	id, method := bad.ID, bad.Method != ""
	switch {
	case id != nil && method:
		s.toHost(failure(id, badError("your request", bad)))
	case id != nil:
		s.toServer(failure(id, badError("the host's answer", bad)))
	}
}

// badFromServer does the same for what the server sent.
func (s *Session) badFromServer(bad *link.BadMessage) {
	s.unreadableServer.Warn(s.opts.Log, "the server sent a message that cannot be passed on", bad)
	id, method := bad.ID, bad.Method != ""
	switch {
	case id != nil && method:
		s.toServer(failure(id, badError("your request", bad)))
	case id != nil:
		s.mu.Lock()
		c := s.calls[link.IDKey(id)]
		delete(s.calls, link.IDKey(id))
		s.mu.Unlock()
		if c != nil {
			s.toHost(failure(c.hostID, badError("the server's answer", bad)))
		}
	}
}

func badError(what string, bad *link.BadMessage) *jsonrpc.Error {
	code := jsonrpc.CodeParseError
	if errors.Is(bad.Err, link.ErrTooLarge) {
		code = jsonrpc.CodeInvalidRequest
	}
	return &jsonrpc.Error{Code: code, Message: fmt.Sprintf("the bridge cannot pass on %s: %v", what, bad.Err)}
}
