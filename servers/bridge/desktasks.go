package bridge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/tasks"
)

// deskTask is a 2025-11-25 task the bridge runs for the server: a
// task-augmented elicitation/create (the host declared
// tasks.requests.elicitation.create), answered with a CreateTaskResult at
// once and asked at the desk while the server polls tasks/get, and whose
// ElicitResult the server fetches with tasks/result. The server then
// waits on no request while the person answers. Its status, message,
// updated, result and failure are s.mu's.
type deskTask struct {
	id               string
	created, updated time.Time
	ttl              int64 // ms
	status, message  string
	result           json.RawMessage // a completed task's ElicitResult
	failure          *jsonrpc.Error  // a failed or cancelled one's error
	ctx              context.Context // ends when the task's question does
	cancel           context.CancelCauseFunc
	done             chan struct{} // closed when the task ends
}

// Limits of the tasks the bridge runs.
const (
	maxDeskTasks   = 64
	defaultTaskTTL = 10 * time.Minute
	maxTaskTTL     = time.Hour
	taskPoll       = time.Second // the poll interval the bridge suggests
)

// newDeskTask returns the task to run a task-augmented elicitation/create
// as, or nil when it is answered as a plain request: the host did not
// declare task-augmented elicitation (so neither did the server see it
// declared), or the session keeps as many tasks as it may, once the ended
// ones past their ttl are dropped. The task lives under parent.
func (s *Session) newDeskTask(parent context.Context, m link.Message) *deskTask {
	if !gjson.GetBytes(m.Raw, "params.task").IsObject() {
		return nil
	}
	ttl := defaultTaskTTL
	if v := gjson.GetBytes(m.Raw, "params.task.ttl"); v.Type == gjson.Number && v.Int() > 0 {
		ttl = min(time.Duration(v.Int())*time.Millisecond, maxTaskTTL)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.hostCan.task {
		return nil
	}
	now := time.Now()
	for id, t := range s.deskTasks {
		ended := t.status == tasks.Completed || t.status == tasks.Failed || t.status == tasks.Cancelled
		if ended && (now.Sub(t.created) > time.Duration(t.ttl)*time.Millisecond || len(s.deskTasks) >= maxDeskTasks) {
			delete(s.deskTasks, id)
		}
	}
	if len(s.deskTasks) >= maxDeskTasks {
		s.opts.Log.Warn("too many elicitation tasks at once: this one is answered as a plain request", "id", string(m.ID))
		return nil
	}
	ctx, cancel := context.WithCancelCause(parent)
	t := &deskTask{
		id: newTaskID(), created: now, updated: now, ttl: ttl.Milliseconds(),
		status: tasks.Working, message: "Waiting for the person to answer in Elicit Desk",
		ctx: ctx, done: make(chan struct{}), cancel: cancel,
	}
	s.deskTasks[t.id] = t
	return t
}

// elicitAsTask answers a task-augmented elicitation/create with t's
// CreateTaskResult, then asks it and ends t with the answer.
func (s *Session) elicitAsTask(m link.Message, t *deskTask) {
	ctx := t.ctx
	defer t.cancel(nil)
	s.mu.Lock()
	created, _ := json.Marshal(map[string]any{"task": t.view()})
	s.mu.Unlock()
	s.toServer(result(m.ID, created))

	params := json.RawMessage(gjson.GetBytes(m.Raw, "params").Raw)
	answer, err := s.ask(ctx, params, s.waitingCalls(m.Related))
	if errors.Is(err, errToHost) {
		answer, err = s.askHost(ctx, params)
	}
	switch {
	case ctx.Err() != nil:
		s.endTask(t, tasks.Cancelled, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: "the task was cancelled"})
	case err == nil, errors.As(err, new(*unshown)):
		s.endTask(t, tasks.Completed, answer, nil)
	case jsonrpc.As(err) != nil: // the app's refusal or the host's error, as made
		s.endTask(t, tasks.Failed, nil, jsonrpc.As(err))
	default:
		s.endTask(t, tasks.Failed, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: err.Error()})
	}
}

// endTask ends t and reports true, unless it had already ended.
func (s *Session) endTask(t *deskTask, status string, answer json.RawMessage, failure *jsonrpc.Error) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-t.done:
		return false
	default:
	}
	t.status, t.result, t.failure, t.updated = status, answer, failure, time.Now()
	t.message = ""
	if failure != nil {
		t.message = failure.Message
	}
	close(t.done)
	return true
}

// view is the Task the server is shown; s.mu is held.
func (t *deskTask) view() map[string]any {
	v := map[string]any{
		"taskId": t.id, "status": t.status,
		"createdAt": t.created.UTC().Format(time.RFC3339Nano), "lastUpdatedAt": t.updated.UTC().Format(time.RFC3339Nano),
		"ttl": t.ttl, "pollInterval": taskPoll.Milliseconds(),
	}
	if t.message != "" {
		v["statusMessage"] = t.message
	}
	return v
}

// deskTaskRequest answers the server's tasks/get, tasks/result and
// tasks/cancel of a task the bridge runs; it reports whether the request
// was about one. The others go to the host.
func (s *Session) deskTaskRequest(m link.Message) bool {
	id := gjson.GetBytes(m.Raw, "params.taskId").String()
	s.mu.Lock()
	t := s.deskTasks[id]
	s.mu.Unlock()
	if t == nil {
		return false
	}
	switch m.Method {
	case "tasks/get":
		s.mu.Lock()
		view, _ := json.Marshal(t.view())
		s.mu.Unlock()
		s.toServer(result(m.ID, view))
	case "tasks/cancel":
		if !s.endTask(t, tasks.Cancelled, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: "the task was cancelled"}) {
			s.toServer(failure(m.ID, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "the task has already ended"}))
			return true
		}
		t.cancel(errors.New("the server cancelled the task"))
		s.mu.Lock()
		view, _ := json.Marshal(t.view())
		s.mu.Unlock()
		s.toServer(result(m.ID, view))
	case "tasks/result":
		s.spawn(func() { s.taskResult(m, t) })
	default:
		return false
	}
	return true
}

// taskResult answers tasks/result once the task has ended, unless the
// server cancels the request first.
func (s *Session) taskResult(m link.Message, t *deskTask) {
	ctx, cancel := context.WithCancelCause(s.ctx)
	defer cancel(nil)
	key := m.Key()
	s.mu.Lock()
	s.asked[key] = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.asked, key)
		s.mu.Unlock()
	}()
	select {
	case <-t.done:
	case <-ctx.Done():
		return
	}
	s.mu.Lock()
	answer, fail := t.result, t.failure
	s.mu.Unlock()
	if fail != nil {
		s.toServer(failure(m.ID, fail))
		return
	}
	related, err := sjson.SetBytes(answer, "_meta."+escapeKey(tasks.RelatedTask), map[string]string{"taskId": t.id})
	if err != nil {
		related = answer
	}
	s.toServer(result(m.ID, related))
}

// askHost gives the host an elicitation no window could show, as a
// request of the bridge's own (the task is the bridge's, so without the
// task param), and returns its answer; a *jsonrpc.Error if it refused.
func (s *Session) askHost(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	if out, err := sjson.DeleteBytes(params, "task"); err == nil {
		params = out
	}
	m, err := s.hostCalls.Call(ctx, struct{}{}, func(id json.RawMessage) (link.Message, error) {
		return wireMessage{ID: id, Method: "elicitation/create", Params: params}.message(nil), nil
	})
	if err != nil {
		return nil, err
	}
	if e := gjson.GetBytes(m.Raw, "error"); e.Exists() {
		fail := &jsonrpc.Error{}
		json.Unmarshal([]byte(e.Raw), fail)
		return nil, fail
	}
	return json.RawMessage(gjson.GetBytes(m.Raw, "result").Raw), nil
}

// newTaskID returns a task id nobody can guess.
func newTaskID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return "elicitdesk-task-" + hex.EncodeToString(b)
}
