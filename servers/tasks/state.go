// Package tasks reads MCP task states and follows a tool call run as a
// task to its end, over raw JSON. It knows both kinds of task:
//
//   - 2025-11-25's: the client asks for one with a `task` param on
//     tools/call and gets {"task":{…}}; it polls tasks/get and fetches the
//     result with tasks/result, on whose stream the server sends the
//     requests the task needs (elicitation/create with the
//     io.modelcontextprotocol/related-task _meta), answered like any other.
//   - the 2026-07-28 tasks extension's (io.modelcontextprotocol/tasks): the
//     server answers a client that declared the extension with a result of
//     resultType "task"; tasks/get returns the task with its final result,
//     or, while it is input_required, the requests it needs in
//     inputRequests, which the client answers with tasks/update.
//
// The bridge reads the states a host polls; Follow runs the whole loop
// for a client of its own.
package tasks

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/tidwall/gjson"
)

// The statuses of a task.
const (
	Working       = "working"
	InputRequired = "input_required"
	Completed     = "completed"
	Failed        = "failed"
	Cancelled     = "cancelled"
)

// Extension is the 2026-07-28 tasks extension's identifier, declared in
// the client's capabilities.extensions.
const Extension = "io.modelcontextprotocol/tasks"

// RelatedTask is the _meta key of a message that belongs to a task.
const RelatedTask = "io.modelcontextprotocol/related-task"

// State is a task as a server last described it.
type State struct {
	ID     string
	Status string
	// Message is the server's statusMessage: its words, to be shown only
	// through package untrusted.
	Message string
	// Poll is the interval the server suggests between polls; zero if it
	// suggests none.
	Poll time.Duration
	// Extension says the task is the 2026-07-28 extension's: its result or
	// error comes with the state, its input requests are answered with
	// tasks/update.
	Extension bool
	// Inputs are the requests the task waits on (the extension's
	// inputRequests), in the server's order.
	Inputs []Input
	// Result is the final result of a completed extension task; Error the
	// JSON-RPC error of a failed one.
	Result json.RawMessage
	Error  json.RawMessage
}

// Input is one of a task's input requests.
type Input struct {
	Key    string
	Method string
	Params json.RawMessage
}

// Terminal reports whether the task has ended.
func (s State) Terminal() bool {
	return s.Status == Completed || s.Status == Failed || s.Status == Cancelled
}

// Created reads a result that may be a CreateTaskResult: 2025-11-25's
// {"task":{…}} or the extension's resultType "task". It reports false for
// any other result.
func Created(result json.RawMessage) (State, bool) {
	r := gjson.ParseBytes(result)
	if r.Get("resultType").String() == "task" {
		st, err := Read(result)
		st.Extension = true
		return st, err == nil
	}
	if t := r.Get("task"); t.IsObject() && r.Get("task.taskId").Type == gjson.String {
		st, err := Read(json.RawMessage(t.Raw))
		return st, err == nil
	}
	return State{}, false
}

// Read reads a task object: a tasks/get result, the task of a
// CreateTaskResult, or the params of a task status notification. A task
// that carries inputRequests, a result or an error is the extension's.
func Read(task json.RawMessage) (State, error) {
	t := gjson.ParseBytes(task)
	if !t.IsObject() || t.Get("taskId").Type != gjson.String || t.Get("status").Type != gjson.String {
		return State{}, fmt.Errorf("not a task: no taskId or status")
	}
	st := State{
		ID:      t.Get("taskId").String(),
		Status:  t.Get("status").String(),
		Message: t.Get("statusMessage").String(),
	}
	// 2025-11-25 says pollInterval, the extension pollIntervalMs.
	for _, name := range []string{"pollIntervalMs", "pollInterval"} {
		if v := t.Get(name); v.Type == gjson.Number && v.Int() > 0 {
			st.Poll = time.Duration(v.Int()) * time.Millisecond
			break
		}
	}
	if v := t.Get("result"); v.IsObject() {
		st.Result, st.Extension = json.RawMessage(v.Raw), true
	}
	if v := t.Get("error"); v.IsObject() {
		st.Error, st.Extension = json.RawMessage(v.Raw), true
	}
	if in := t.Get("inputRequests"); in.IsObject() {
		st.Extension = true
		in.ForEach(func(key, r gjson.Result) bool {
			st.Inputs = append(st.Inputs, Input{Key: key.String(), Method: r.Get("method").String(), Params: json.RawMessage(r.Get("params").Raw)})
			return true
		})
	}
	if t.Get("ttlMs").Exists() || t.Get("resultType").Exists() {
		st.Extension = true
	}
	return st, nil
}
