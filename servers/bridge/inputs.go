package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/servers/client"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// needsInput reports whether a response is a 2026-07-28 input_required
// result with an elicitation among its input requests.
func needsInput(m link.Message) bool {
	// Most responses are not: tell by one member before copying the result.
	if gjson.GetBytes(m.Raw, "result.resultType").String() != "input_required" {
		return false
	}
	in, ok := inputRequired(m)
	return ok && in.HasElicitation()
}

// inputRequired reads a response's input_required result.
func inputRequired(m link.Message) (client.InputRequired, bool) {
	return client.ReadInputRequired(json.RawMessage(gjson.GetBytes(m.Raw, "result").Raw))
}

// answerInputs answers an input_required result for the host: it shows
// its elicitations, retries the host's request with the answers and the
// requestState, and again while the server asks for more, then gives the
// host the final result under its own id. Input requests the bridge does
// not answer (sampling, roots) still reach the host, in a result without
// the answered ones; the answers join the host's retry (see mergeAnswers).
// The host gets an error instead when the server asks more than
// MaxInputRounds times, or when nobody could answer an input request (no
// window, or the app refused it): a server told cancel would only ask again.
func (s *Session) answerInputs(c *call, res link.Message) {
	ctx, done := s.working(c)
	defer done()
	for rounds := 0; needsInput(res); rounds++ {
		if rounds == MaxInputRounds {
			s.finish(c, failure(c.hostID, &jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: fmt.Sprintf(
				"the server still asked for input after %d rounds, the most Elicit Desk answers for one request", MaxInputRounds)}))
			return
		}
		in, _ := inputRequired(res)
		answers, rest, err := s.answerElicitations(ctx, c, in.Requests)
		var nobody *unanswered
		switch {
		case errors.Is(err, errToHost):
			s.finish(c, res)
			return
		case errors.As(err, &nobody):
			s.finish(c, failure(c.hostID, &jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: nobody.Error()}))
			return
		case err != nil:
			return // the host cancelled, or the session is over
		case len(rest) > 0:
			s.keepAnswers(gjson.ParseBytes(in.State).String(), answers)
			s.finish(c, withoutInputs(res, answers))
			return
		}
		// The state as the server wrote it; none if it gave none (mrtr).
		params, err := client.RetryParams(json.RawMessage(gjson.GetBytes(c.req.Raw, "params").Raw), answers, in.State)
		if err != nil {
			s.toHost(failure(c.hostID, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("cannot retry the request with the answers: %v", err)}))
			return
		}
		if res, err = s.retry(ctx, c, params); err != nil {
			return
		}
	}
	s.finish(c, res)
}

// MaxInputRounds is the most input_required results the bridge answers
// for one host request, as many as the app's own calls; a server that
// asks again after that gets no more answers, and the host an error.
const MaxInputRounds = client.MaxInputRounds

// unanswered is why an input request got no answer from a person: no
// window could show it, or the app refused it (over its server's limits,
// or unusable as sent).
type unanswered struct {
	key string
	err error
}

func (u *unanswered) Error() string {
	return fmt.Sprintf("nobody could answer the server's input request %q: %v", u.key, u.err)
}

func (u *unanswered) Unwrap() error { return u.err }

// answerElicitations asks the person each elicitation of inputs, in the
// server's order, and returns the answers by key and the keys of the
// other input requests; an *unanswered error stops at the first input
// request nobody answered.
func (s *Session) answerElicitations(ctx context.Context, c *call, inputs []client.InputRequest) (map[string]json.RawMessage, []string, error) {
	answers := map[string]json.RawMessage{}
	var rest []string
	for _, in := range inputs {
		if in.Method != "elicitation/create" {
			rest = append(rest, in.Key)
			continue
		}
		answer, err := s.ask(ctx, in.Params, []*call{c})
		if jsonrpc.As(err) != nil || errors.As(err, new(*unshown)) || errors.As(err, new(*notAsked)) {
			// An input response cannot be an error, and a cancel nobody
			// chose lets the server ask again at once: the call ends.
			s.opts.Log.Warn("an input request was not answered", "key", in.Key, "reason", err)
			err = &unanswered{key: in.Key, err: err}
		}
		answers[in.Key] = answer
		if err != nil {
			return answers, rest, err
		}
	}
	return answers, rest, nil
}

// retry sends the host's request again, as the bridge's own, with params,
// and waits for the server's answer. The host cancelling ends the wait and
// tells the server.
func (s *Session) retry(ctx context.Context, c *call, params json.RawMessage) (link.Message, error) {
	return s.serverCalls.Call(ctx, c, func(id json.RawMessage) (link.Message, error) {
		raw, err := sjson.SetRawBytes(withID(c.req.Raw, id), "params", params)
		return link.Message{Raw: raw, ID: id, Method: c.method}, err
	})
}

// withoutInputs returns an input_required result without the input
// requests the bridge answered.
func withoutInputs(m link.Message, answered map[string]json.RawMessage) link.Message {
	raw := m.Raw
	for key := range answered {
		if out, err := sjson.DeleteBytes(raw, "result.inputRequests."+escapeKey(key)); err == nil {
			raw = out
		}
	}
	m.Raw = raw
	return m
}

// maxKept bounds the answers kept for hosts' retries: a host that never
// retries must not grow the bridge.
const maxKept = 64

// keepAnswers keeps the person's answers for the host's retry of the
// request whose result carried requestState.
func (s *Session) keepAnswers(state string, answers map[string]json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.kept) >= maxKept {
		for k := range s.kept { // any one: the oldest is not worth a list
			delete(s.kept, k)
			break
		}
	}
	s.kept[state] = answers
}

// mergeAnswers adds the answers kept for a host's retry to its
// inputResponses; s.mu is held.
func (s *Session) mergeAnswers(raw json.RawMessage) json.RawMessage {
	state := gjson.GetBytes(raw, "params.requestState")
	answers, ok := s.kept[state.String()]
	if !state.Exists() || !ok {
		return raw
	}
	delete(s.kept, state.String())
	responses := map[string]json.RawMessage{}
	json.Unmarshal([]byte(gjson.GetBytes(raw, "params.inputResponses").Raw), &responses)
	for k, v := range answers {
		if _, set := responses[k]; !set {
			responses[k] = v
		}
	}
	out, err := sjson.SetBytes(raw, "params.inputResponses", responses)
	if err != nil {
		return raw
	}
	return out
}

// busyCall is a host request the bridge answers for the server.
type busyCall struct {
	call   *call
	cancel context.CancelCauseFunc
}

// working marks c as answered by the bridge until done is called: the
// host's notifications/cancelled for it ends ctx.
func (s *Session) working(c *call) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancelCause(s.ctx)
	key := link.IDKey(c.hostID)
	s.mu.Lock()
	s.busy[key] = &busyCall{call: c, cancel: cancel}
	s.mu.Unlock()
	return ctx, func() {
		// Work the session's end cut short stays owed: Run answers it.
		if s.ctx.Err() == nil {
			s.mu.Lock()
			if b := s.busy[key]; b != nil && b.call == c {
				delete(s.busy, key)
			}
			s.mu.Unlock()
		}
		cancel(nil)
	}
}

// finish gives the host the answer to c unless the session already
// answered it (the server went away): the host gets one answer only.
func (s *Session) finish(c *call, m link.Message) {
	key := link.IDKey(c.hostID)
	s.mu.Lock()
	b := s.busy[key]
	mine := b != nil && b.call == c
	if mine {
		delete(s.busy, key)
	}
	s.mu.Unlock()
	if mine {
		s.toHost(s.forHost(c, m))
	}
}

// cancelWork ends the bridge's work on a host request the host cancelled;
// it reports whether there was any. A request still with the server is
// cancelled there by passing the notification on.
func (s *Session) cancelWork(m link.Message) bool {
	key := cancelled(m)
	s.mu.Lock()
	b := s.busy[key]
	s.mu.Unlock()
	if b == nil {
		return false
	}
	b.cancel(errors.New("the host cancelled the request"))
	return true
}
