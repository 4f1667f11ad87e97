package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// elicit answers a server's elicitation/create at the desk. A server's
// notifications/cancelled for it, or the end of the session, ends the
// question; the window goes stale. It is asked under parent.
func (s *Session) elicit(parent context.Context, m link.Message) {
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	key := m.Key()
	s.mu.Lock()
	if s.asked[key] != nil {
		// Sent again while asked (a task's request delivered on a second
		// tasks/result stream): one window, one answer.
		s.mu.Unlock()
		s.opts.Log.Warn("the server sent a request again while it is being answered; the copy is dropped", "id", string(m.ID))
		return
	}
	s.asked[key] = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.asked, key)
		s.mu.Unlock()
	}()
	params := json.RawMessage(gjson.GetBytes(m.Raw, "params").Raw)
	urlID := gjson.GetBytes(params, "elicitationId").String()
	s.markOurs(urlID, true)
	answer, err := s.ask(ctx, params, s.waitingCalls(m.Related))
	switch {
	case errors.Is(err, errToHost):
		s.markOurs(urlID, false)     // the host sees its completion too
		arrived := rpc.WaitTurn(ctx) // handed on in the order the server asked
		s.toHost(s.relatedToHost(m))
		arrived()
	case ctx.Err() != nil:
		// The server cancelled, or the session is over: nobody waits.
	case errors.As(err, new(*unshown)):
		s.toServer(result(m.ID, answer)) // cancel: the server asked once, and may go on without
	case err != nil:
		refused := jsonrpc.As(err) // the app's refusal, sent on as it made it
		if refused == nil {
			refused = &jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: err.Error()}
		}
		s.toServer(failure(m.ID, refused))
	default:
		if gjson.GetBytes(answer, "action").String() != "accept" {
			s.markOurs(urlID, false) // no completion will follow
		}
		s.toServer(result(m.ID, answer))
	}
}

// markOurs notes whether the desk shows the URL elicitation id.
func (s *Session) markOurs(id string, ours bool) {
	if id == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ours {
		s.ourURLs[id] = true
	} else {
		delete(s.ourURLs, id)
	}
}

// errToHost means the elicitation goes to the host, which declared it,
// because no window can show it.
var errToHost = errors.New("passed to the host")

// ask shows one elicitation at the desk while keeping waiting alive with
// progress. With no window it returns errToHost when the host can take
// the elicitation, and otherwise cancel with an *unshown error; either is
// recorded. When Elicit Desk cannot be reached for another reason, or
// goes away mid-question, it returns a *notAsked error, which the server
// gets as a JSON-RPC error, and tells the host why: a cancel would read
// as the person's.
func (s *Session) ask(ctx context.Context, params json.RawMessage, waiting []*call) (json.RawMessage, error) {
	defer s.keepAlive(ctx, waiting)()
	q := endpoint.Question{Session: s.snapshot(), Params: params}
	answer, err := s.opts.Desk.Ask(ctx, q)
	switch {
	case err == nil, ctx.Err() != nil, jsonrpc.As(err) != nil:
		return answer, err
	case errors.Is(err, ErrNoWindow):
		s.mu.Lock()
		can := s.hostCan
		s.mu.Unlock()
		toHost := can.allows(params)
		if toHost {
			s.opts.Log.Warn("no window could show the elicitation: the host, which declared elicitation, gets it; its answer is the host's, not the person's", "reason", err)
		} else {
			s.opts.Log.Warn("no window could show the elicitation and the host declared no elicitation: the server is told cancel", "reason", err)
		}
		if s.opts.Unshown != nil {
			s.opts.Unshown(endpoint.Unshown{Question: q, Reason: err.Error(), At: time.Now(), ToHost: toHost})
		}
		if toHost {
			return nil, errToHost
		}
		return cancelAnswer, &unshown{err}
	default:
		msg := fmt.Sprintf("the elicitation could not be asked in Elicit Desk: %v", err)
		if errors.Is(err, endpoint.ErrDisconnected) {
			msg = fmt.Sprintf("Elicit Desk went away before the person answered: %v", err)
		}
		s.opts.Log.Warn(msg + "; the server gets an error")
		s.toHost(notification("notifications/message", map[string]any{"level": "warning", "logger": "elicitdesk", "data": msg + "; the server gets an error"}, nil))
		return nil, &notAsked{msg}
	}
}

// notAsked is the error of an elicitation Elicit Desk could not ask, for
// another reason than no window: its words go to the server.
type notAsked struct{ msg string }

func (n *notAsked) Error() string { return n.msg }

// unshown is the error of an elicitation no window could show and the
// host could not take; its answer is cancel.
type unshown struct{ err error }

func (u *unshown) Error() string { return u.err.Error() } // wraps ErrNoWindow, which says so
func (u *unshown) Unwrap() error { return u.err }

// waitingCalls returns the host requests that wait on a server's request:
// the one it is related to, or, where the transport does not tell, every
// pending one.
func (s *Session) waitingCalls(related json.RawMessage) []*call {
	s.mu.Lock()
	defer s.mu.Unlock()
	if related != nil {
		if c := s.calls[link.IDKey(related)]; c != nil {
			return []*call{c}
		}
		if c, ok := s.serverCalls.About(link.IDKey(related)); ok {
			return []*call{c}
		}
	}
	var all []*call
	for _, c := range s.calls {
		all = append(all, c)
	}
	return all
}

// cancelAsk ends the question of a server's request it cancelled; it
// reports whether the request was at the desk.
func (s *Session) cancelAsk(m link.Message) bool {
	key := cancelled(m)
	s.mu.Lock()
	cancel := s.asked[key]
	s.mu.Unlock()
	if cancel == nil {
		return false
	}
	// The core shows why, as the app says it of its own servers' cancels.
	cause := errors.New(endpoint.ServerCancelled)
	if reason := gjson.GetBytes(m.Raw, "params.reason").String(); reason != "" {
		cause = fmt.Errorf("%w: %s", cause, reason)
	}
	cancel(cause)
	return true
}

// completed passes a URL elicitation's completion to the desk and to a
// -32042 retry waiting for it; it reports whether the host never saw the
// elicitation, and so must not see its completion either.
func (s *Session) completed(m link.Message) bool {
	id := gjson.GetBytes(m.Raw, "params.elicitationId").String()
	s.mu.Lock()
	ours := s.ourURLs[id]
	delete(s.ourURLs, id)
	done := s.urls[id]
	delete(s.urls, id)
	info := s.info
	s.mu.Unlock()
	if done != nil {
		close(done)
	}
	if ours {
		s.opts.Desk.Complete(endpoint.Completion{Session: info.ID, Server: info.Server, ElicitationID: id})
	}
	return ours
}
