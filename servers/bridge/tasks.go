package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/tasks"
)

// taskAsk is one input request of a 2026-07-28 extension task that the
// bridge answers at the desk, kept by task id and input request key (a
// key names one request for the task's whole life), so that the host
// polling the task again while the person answers opens no second window
// and an answered request is not asked again.
type taskAsk struct {
	task   string
	key    string
	cancel context.CancelCauseFunc
	toHost bool // no window could show it: the host, which declared elicitation, answers it
}

// maxTaskAsks bounds the input requests the bridge keeps: past it, new
// ones go to the host as sent.
const maxTaskAsks = 256

func taskAskKey(task, key string) string { return task + "\x00" + key }

// taskInputs takes the elicitations among the input requests of the task
// at path in m, a tasks/get result the host polled (path "result") or a
// task status notification (path "params"): each is asked at the desk
// once, answered with a tasks/update of the bridge's own, carrying meta
// (2026-07-28's protocol version and capabilities), and left out of what
// the host gets, where the task says working when nothing else is asked
// of the host. A task that ended, or no longer lists a request, ends its
// question.
func (s *Session) taskInputs(c *call, m link.Message, path string, meta json.RawMessage) link.Message {
	st, err := tasks.Read(json.RawMessage(gjson.GetBytes(m.Raw, path).Raw))
	if err != nil || !st.Extension {
		return m
	}
	listed := map[string]bool{}
	var start []*taskAsk
	var hide []string
	var ended []context.CancelCauseFunc
	s.mu.Lock()
	for _, in := range st.Inputs {
		listed[in.Key] = true
		if st.Status != tasks.InputRequired || in.Method != "elicitation/create" {
			continue
		}
		a := s.taskAsks[taskAskKey(st.ID, in.Key)]
		if a == nil {
			if len(s.taskAsks) >= maxTaskAsks {
				s.opts.Log.Warn("too many task input requests at the desk: the host gets this one", "task", st.ID, "key", in.Key)
				continue
			}
			a = &taskAsk{task: st.ID, key: in.Key}
			s.taskAsks[taskAskKey(st.ID, in.Key)] = a
			start = append(start, a)
		}
		if !a.toHost {
			hide = append(hide, in.Key)
		}
	}
	for k, a := range s.taskAsks {
		if a.task != st.ID || listed[a.key] && !st.Terminal() {
			continue
		}
		if st.Terminal() {
			delete(s.taskAsks, k)
		}
		ended = append(ended, a.cancel)
	}
	for _, a := range start {
		ctx, cancel := context.WithCancelCause(s.ctx)
		a.cancel = cancel
		params := inputParams(st, a.key)
		s.spawn(func() { s.answerTaskInput(ctx, c, a, params, meta) })
	}
	s.mu.Unlock()
	for _, cancel := range ended {
		cancel(errors.New("the server no longer asks"))
	}
	if len(hide) == 0 {
		return m
	}
	raw := m.Raw
	for _, key := range hide {
		if out, err := sjson.DeleteBytes(raw, path+".inputRequests."+escapeKey(key)); err == nil {
			raw = out
		}
	}
	if len(hide) == len(st.Inputs) {
		if out, err := sjson.DeleteBytes(raw, path+".inputRequests"); err == nil {
			raw = out
		}
		if out, err := sjson.SetBytes(raw, path+".status", tasks.Working); err == nil {
			raw = out
		}
	}
	m.Raw = raw
	return m
}

func inputParams(st tasks.State, key string) json.RawMessage {
	for _, in := range st.Inputs {
		if in.Key == key {
			return in.Params
		}
	}
	return nil
}

// answerTaskInput asks one task input request at the desk and sends the
// answer with tasks/update. With no window, a host that declared
// elicitation gets the request on its next poll; otherwise the server is
// told cancel, as for any elicitation. An input response cannot be an
// error: a request the app refused, or could not ask, cancels the task.
func (s *Session) answerTaskInput(ctx context.Context, c *call, a *taskAsk, params, meta json.RawMessage) {
	defer a.cancel(nil)
	answer, err := s.ask(ctx, params, nil)
	switch {
	case errors.Is(err, errToHost):
		s.mu.Lock()
		a.toHost = true
		s.mu.Unlock()
		return
	case ctx.Err() != nil:
		return // the task ended, the server stopped asking, or the session is over
	case errors.As(err, new(*unshown)):
	case err != nil:
		s.opts.Log.Warn("a task's input request was not answered: the task is cancelled", "task", a.task, "key", a.key, "reason", err)
		s.taskRequest(c, "tasks/cancel", map[string]any{"taskId": a.task}, meta)
		return
	}
	s.taskRequest(c, "tasks/update", map[string]any{"taskId": a.task, "inputResponses": map[string]json.RawMessage{a.key: answer}}, meta)
}

// taskRequest sends a tasks/* request of the bridge's own for the host's
// call c, with meta, and waits for its answer.
func (s *Session) taskRequest(c *call, method string, params map[string]any, meta json.RawMessage) {
	if len(meta) > 0 {
		params["_meta"] = meta
	}
	m, err := s.serverCalls.Call(s.ctx, c, func(id json.RawMessage) (link.Message, error) {
		return wireMessage{ID: id, Method: method, Params: params}.message(nil), nil
	})
	if e := gjson.GetBytes(m.Raw, "error"); err == nil && e.Exists() {
		s.opts.Log.Warn("the server refused the bridge's "+method, "task", params["taskId"], "error", e.Raw)
	}
}

// forgetTask ends the questions of a task the host cancelled.
func (s *Session) forgetTask(raw json.RawMessage) {
	id := gjson.GetBytes(raw, "params.taskId").String()
	var ended []context.CancelCauseFunc
	s.mu.Lock()
	for k, a := range s.taskAsks {
		if a.task == id {
			delete(s.taskAsks, k)
			ended = append(ended, a.cancel)
		}
	}
	s.mu.Unlock()
	for _, cancel := range ended {
		cancel(errors.New("the host cancelled the task"))
	}
}

// taskNotification takes the input requests of a 2026-07-28 task status
// notification as taskInputs does, answered with the _meta of the host's
// latest request.
func (s *Session) taskNotification(m link.Message) link.Message {
	s.mu.Lock()
	meta := s.meta
	s.mu.Unlock()
	return s.taskInputs(&call{method: m.Method}, m, "params", meta)
}

// protocolMeta returns the 2026-07-28 protocol members of a request's
// _meta (version, client capabilities and info) for a request of the
// bridge's own: not the request's own, such as its progressToken.
func protocolMeta(raw json.RawMessage) json.RawMessage {
	kept := map[string]json.RawMessage{}
	gjson.GetBytes(raw, "params._meta").ForEach(func(k, v gjson.Result) bool {
		if key := k.String(); strings.HasPrefix(key, "io.modelcontextprotocol/") && key != tasks.RelatedTask {
			kept[key] = json.RawMessage(v.Raw)
		}
		return true
	})
	if len(kept) == 0 {
		return nil
	}
	out, _ := json.Marshal(kept)
	return out
}
