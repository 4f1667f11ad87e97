package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// step is one request a scripted server expects, and its answer.
type step struct {
	method, params string // params as JSON, compared as values
	reply          string // a result, or
	err            error
}

// script is a server that answers requests in the order given.
type script struct {
	t     *testing.T
	steps []step
	asked []string // the input requests' messages, in order
}

func (s *script) call(_ context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	s.t.Helper()
	if len(s.steps) == 0 {
		s.t.Fatalf("unexpected %s %s", method, params)
	}
	st := s.steps[0]
	s.steps = s.steps[1:]
	if method != st.method || !sameJSON(params, st.params) {
		s.t.Fatalf("got %s %s, want %s %s", method, params, st.method, st.params)
	}
	return json.RawMessage(st.reply), st.err
}

func (s *script) ask(_ context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	msg := gjson.GetBytes(params, "message").String()
	s.asked = append(s.asked, method+" "+msg)
	if msg == "refuse" {
		return nil, errors.New("refused at the desk")
	}
	return json.RawMessage(`{"action":"accept","content":{"said":"` + msg + `"}}`), nil
}

func sameJSON(a json.RawMessage, b string) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

const (
	task1    = `{"taskId":"t1"}`
	extTask  = `"taskId":"t1","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":60000,"pollIntervalMs":1`
	oldTask  = `"taskId":"t1","createdAt":"2025-11-25T00:00:00Z","lastUpdatedAt":"2025-11-25T00:00:00Z","ttl":60000,"pollInterval":1`
	elicitA  = `"a":{"method":"elicitation/create","params":{"mode":"form","message":"first","requestedSchema":{"type":"object","properties":{}}}}`
	elicitB  = `"b":{"method":"elicitation/create","params":{"mode":"form","message":"second","requestedSchema":{"type":"object","properties":{}}}}`
	refusing = `"r":{"method":"elicitation/create","params":{"message":"refuse","requestedSchema":{"type":"object","properties":{}}}}`
	toolDone = `{"content":[{"type":"text","text":"done"}]}`
)

func TestFollow(t *testing.T) {
	tests := []struct {
		name    string
		first   string // the request's result
		steps   []step
		want    string // the final result, or
		wantErr func(error) bool
		asked   []string
	}{
		{name: "not a task", first: toolDone, want: toolDone},
		{
			name:  "2025-11-25: polled until input_required, then tasks/result",
			first: `{"task":{` + oldTask + `,"status":"working"}}`,
			steps: []step{
				{method: "tasks/get", params: task1, reply: `{` + oldTask + `,"status":"working"}`},
				{method: "tasks/get", params: task1, reply: `{` + oldTask + `,"status":"input_required"}`},
				{method: "tasks/result", params: task1, reply: toolDone},
			},
			want: toolDone,
		},
		{
			name:  "2025-11-25: a failed task's tasks/result error",
			first: `{"task":{` + oldTask + `,"status":"working"}}`,
			steps: []step{
				{method: "tasks/get", params: task1, reply: `{` + oldTask + `,"status":"failed"}`},
				{method: "tasks/result", params: task1, err: &jsonrpc.Error{Code: -32603, Message: "boom"}},
			},
			wantErr: func(err error) bool { return jsonrpc.As(err) != nil && jsonrpc.As(err).Message == "boom" },
		},
		{
			name:  "extension: each input request answered once, however often it is polled",
			first: `{"resultType":"task",` + extTask + `,"status":"working"}`,
			steps: []step{
				{method: "tasks/get", params: task1, reply: `{"resultType":"complete",` + extTask + `,"status":"input_required","inputRequests":{` + elicitA + `}}`},
				{method: "tasks/update", params: `{"taskId":"t1","inputResponses":{"a":{"action":"accept","content":{"said":"first"}}}}`, reply: `{"resultType":"complete"}`},
				{method: "tasks/get", params: task1, reply: `{"resultType":"complete",` + extTask + `,"status":"input_required","inputRequests":{` + elicitA + `}}`},
				{method: "tasks/get", params: task1, reply: `{"resultType":"complete",` + extTask + `,"status":"input_required","inputRequests":{` + elicitA + `,` + elicitB + `}}`},
				{method: "tasks/update", params: `{"taskId":"t1","inputResponses":{"b":{"action":"accept","content":{"said":"second"}}}}`, reply: `{"resultType":"complete"}`},
				{method: "tasks/get", params: task1, reply: `{"resultType":"complete",` + extTask + `,"status":"working"}`},
				{method: "tasks/get", params: task1, reply: `{"resultType":"complete",` + extTask + `,"status":"completed","result":` + toolDone + `}`},
			},
			want:  toolDone,
			asked: []string{"elicitation/create first", "elicitation/create second"},
		},
		{
			name:  "extension: input requests in the created task",
			first: `{"resultType":"task",` + extTask + `,"status":"input_required","inputRequests":{` + elicitA + `}}`,
			steps: []step{
				{method: "tasks/update", params: `{"taskId":"t1","inputResponses":{"a":{"action":"accept","content":{"said":"first"}}}}`, reply: `{}`},
				{method: "tasks/get", params: task1, reply: `{"resultType":"complete",` + extTask + `,"status":"completed","result":` + toolDone + `}`},
			},
			want:  toolDone,
			asked: []string{"elicitation/create first"},
		},
		{
			name:  "extension: failed",
			first: `{"resultType":"task",` + extTask + `,"status":"working"}`,
			steps: []step{
				{method: "tasks/get", params: task1, reply: `{"resultType":"complete",` + extTask + `,"status":"failed","error":{"code":-32001,"message":"rate limited"}}`},
			},
			wantErr: func(err error) bool {
				e := jsonrpc.As(err)
				return e != nil && e.Code == -32001 && e.Message == "rate limited"
			},
		},
		{
			name:  "extension: cancelled",
			first: `{"resultType":"task",` + extTask + `,"status":"working"}`,
			steps: []step{
				{method: "tasks/get", params: task1, reply: `{"resultType":"complete",` + extTask + `,"status":"cancelled"}`},
			},
			wantErr: func(err error) bool { return errors.Is(err, ErrCancelled) },
		},
		{
			name:  "extension: an input request nobody answers cancels the task",
			first: `{"resultType":"task",` + extTask + `,"status":"working"}`,
			steps: []step{
				{method: "tasks/get", params: task1, reply: `{"resultType":"complete",` + extTask + `,"status":"input_required","inputRequests":{` + refusing + `}}`},
				{method: "tasks/cancel", params: task1, reply: `{"resultType":"complete"}`},
			},
			wantErr: func(err error) bool { return errors.As(err, new(*InputError)) },
			asked:   []string{"elicitation/create refuse"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &script{t: t, steps: tt.steps}
			f := &Follower{Call: s.call, Ask: s.ask}
			got, err := f.Follow(context.Background(), json.RawMessage(tt.first))
			switch {
			case tt.wantErr != nil && (err == nil || !tt.wantErr(err)):
				t.Fatalf("got %s, %v; want an error", got, err)
			case tt.wantErr == nil && err != nil:
				t.Fatalf("got %v", err)
			case tt.wantErr == nil && string(got) != tt.want:
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if len(s.steps) > 0 {
				t.Errorf("not sent: %+v", s.steps)
			}
			if len(s.asked) != len(tt.asked) {
				t.Fatalf("asked %q, want %q", s.asked, tt.asked)
			}
			for i := range s.asked {
				if s.asked[i] != tt.asked[i] {
					t.Errorf("asked %q, want %q", s.asked, tt.asked)
				}
			}
		})
	}
}

// TestFollowCancels cancels the task when the client gives up waiting.
func TestFollowCancels(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var sent []string
	call := func(c context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
		sent = append(sent, method)
		if method == "tasks/get" {
			cancel() // the person gave up while the task works
			return json.RawMessage(`{"resultType":"complete",` + extTask + `,"status":"working"}`), nil
		}
		if c.Err() != nil {
			t.Errorf("%s sent with an ended context", method)
		}
		return json.RawMessage(`{}`), nil
	}
	f := &Follower{Call: call}
	_, err := f.Follow(ctx, json.RawMessage(`{"resultType":"task",`+extTask+`,"status":"working"}`))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if len(sent) != 2 || sent[1] != "tasks/cancel" {
		t.Errorf("sent %q, want tasks/get then tasks/cancel", sent)
	}
}

func TestWanted(t *testing.T) {
	caps := json.RawMessage(`{"tasks":{"requests":{"tools":{"call":{}}}}}`)
	for _, tt := range []struct {
		caps, tool string
		want       bool
	}{
		{string(caps), `{"name":"t","execution":{"taskSupport":"required"}}`, true},
		{string(caps), `{"name":"t","execution":{"taskSupport":"optional"}}`, true},
		{string(caps), `{"name":"t","execution":{"taskSupport":"forbidden"}}`, false},
		{string(caps), `{"name":"t"}`, false},
		{`{"tools":{}}`, `{"name":"t","execution":{"taskSupport":"required"}}`, false},
	} {
		if got := Wanted(json.RawMessage(tt.caps), json.RawMessage(tt.tool)); got != tt.want {
			t.Errorf("Wanted(%s, %s) = %v", tt.caps, tt.tool, got)
		}
	}
}

func TestAsTask(t *testing.T) {
	got, err := AsTask(json.RawMessage(`{"name":"t","arguments":{}}`))
	if want := `{"name":"t","arguments":{},"task":{}}`; err != nil || string(got) != want {
		t.Errorf("AsTask: %s, %v; want %s", got, err, want)
	}
}
