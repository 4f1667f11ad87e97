package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// Call sends one request to the server and returns its result, or an
// error: a *jsonrpc.Error for the server's. It adds whatever every
// request carries (2026-07-28's _meta), as for any other request.
type Call func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)

// Ask answers one of a task's input requests (method and params as the
// server wrote them), an ElicitResult for an elicitation/create; an error
// when it cannot be answered.
type Ask func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)

// Follower follows tasks to their end for a client.
type Follower struct {
	Call Call
	Ask  Ask
	// Poll is the time between polls when the server suggests none; one
	// second if zero.
	Poll time.Duration
	// Log is where it reports; nothing if nil.
	Log *slog.Logger
}

// Wanted reports whether a tools/call of a tool should ask for a
// 2025-11-25 task: the server declared task-augmented tools/call in its
// capabilities and the tool's execution.taskSupport allows it ("required",
// or "optional"). The 2026-07-28 extension needs no such choice: the
// client declares the extension and the server decides.
func Wanted(serverCapabilities, tool json.RawMessage) bool {
	if !TakesToolCalls(serverCapabilities) {
		return false
	}
	switch gjson.GetBytes(tool, "execution.taskSupport").String() {
	case "required", "optional":
		return true
	}
	return false
}

// TakesToolCalls reports whether a 2025-11-25 server declared
// task-augmented tools/call in its capabilities.
func TakesToolCalls(serverCapabilities json.RawMessage) bool {
	return gjson.GetBytes(serverCapabilities, "tasks.requests.tools.call").Exists()
}

// AsTask returns tools/call params that ask for a 2025-11-25 task.
func AsTask(params json.RawMessage) (json.RawMessage, error) {
	return sjson.SetRawBytes(params, "task", []byte(`{}`))
}

// ErrCancelled is the error of a task that ended cancelled.
var ErrCancelled = errors.New("the task was cancelled")

// Follow returns the final result of a request whose result was result:
// result itself unless it is a CreateTaskResult, else what the task ends
// with, after polling tasks/get and answering the task's input requests
// (the extension's, through Ask; a 2025-11-25 task's come as requests of
// their own on tasks/result's stream, answered like any other). A failed
// task's error is returned as a *jsonrpc.Error. When ctx ends, or an
// input request cannot be answered, the task is cancelled.
func (f *Follower) Follow(ctx context.Context, result json.RawMessage) (json.RawMessage, error) {
	st, ok := Created(result)
	if !ok {
		return result, nil
	}
	out, err := f.follow(ctx, st)
	if err != nil && (ctx.Err() != nil || errors.As(err, new(*InputError))) {
		f.cancel(ctx, st.ID)
	}
	return out, err
}

// InputError is why a task's input request got no answer; the task is
// cancelled.
type InputError struct {
	Key string
	Err error
}

func (e *InputError) Error() string {
	return fmt.Sprintf("the task's input request %q got no answer: %v", e.Key, e.Err)
}

func (e *InputError) Unwrap() error { return e.Err }

func (f *Follower) follow(ctx context.Context, st State) (json.RawMessage, error) {
	answered := map[string]bool{} // input request keys already answered: a later poll may still list them
	for {
		switch {
		case !st.Extension && (st.Terminal() || st.Status == InputRequired):
			// tasks/result waits for the end; the task's requests come on
			// its stream meanwhile.
			return f.Call(ctx, "tasks/result", taskParams(st.ID))
		case st.Status == Completed:
			if st.Result == nil {
				return nil, fmt.Errorf("the server's completed task %q carries no result", st.ID)
			}
			return st.Result, nil
		case st.Status == Failed:
			e := &jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: "the task failed"}
			if st.Error != nil {
				json.Unmarshal(st.Error, e)
			}
			return nil, e
		case st.Status == Cancelled:
			return nil, ErrCancelled
		case st.Status == InputRequired:
			if err := f.answer(ctx, st, answered); err != nil {
				return nil, err
			}
		}
		if err := f.wait(ctx, st.Poll); err != nil {
			return nil, err
		}
		raw, err := f.Call(ctx, "tasks/get", taskParams(st.ID))
		if err != nil {
			return nil, err
		}
		extension := st.Extension
		if st, err = Read(raw); err != nil {
			return nil, fmt.Errorf("tasks/get: %w", err)
		}
		st.Extension = st.Extension || extension
	}
}

// answer answers the input requests of st not answered yet, in one
// tasks/update.
func (f *Follower) answer(ctx context.Context, st State, answered map[string]bool) error {
	responses := map[string]json.RawMessage{}
	for _, in := range st.Inputs {
		if answered[in.Key] {
			continue
		}
		res, err := f.Ask(ctx, in.Method, in.Params)
		if err != nil {
			return &InputError{Key: in.Key, Err: err}
		}
		responses[in.Key] = res
	}
	if len(responses) == 0 {
		return nil
	}
	params, err := json.Marshal(map[string]any{"taskId": st.ID, "inputResponses": responses})
	if err != nil {
		return err
	}
	if _, err := f.Call(ctx, "tasks/update", params); err != nil {
		return fmt.Errorf("tasks/update: %w", err)
	}
	for key := range responses {
		answered[key] = true
	}
	return nil
}

// wait waits for the next poll.
func (f *Follower) wait(ctx context.Context, suggested time.Duration) error {
	d := suggested
	if d <= 0 {
		d = f.Poll
	}
	if d <= 0 {
		d = time.Second
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// cancel asks the server to cancel a task the client gave up, without
// waiting long: it is only a courtesy.
func (f *Follower) cancel(ctx context.Context, id string) {
	ctx, stop := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer stop()
	if _, err := f.Call(ctx, "tasks/cancel", taskParams(id)); err != nil && f.Log != nil {
		f.Log.Warn("cannot cancel the task", "task", id, "err", err)
	}
}

func taskParams(id string) json.RawMessage {
	raw, _ := json.Marshal(map[string]string{"taskId": id})
	return raw
}
