package client

import (
	"bytes"
	"encoding/json"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// MaxInputRounds is the most input_required results answered for one
// request, by the app and by the bridge alike; a server that asks again
// after that gets no more answers.
const MaxInputRounds = 8

// InputRequired is a 2026-07-28 input_required result: what the server
// asks before it can answer, and the state to send back with the answers.
type InputRequired struct {
	Requests []InputRequest  // in the server's order
	State    json.RawMessage // requestState as sent; nil when absent
}

// InputRequest is one of an input_required result's inputRequests.
type InputRequest struct {
	Key    string
	Method string
	Params json.RawMessage // as sent
}

// ReadInputRequired reads a result; false when it is not input_required.
func ReadInputRequired(result json.RawMessage) (InputRequired, bool) {
	r := gjson.ParseBytes(result)
	if r.Get("resultType").String() != "input_required" {
		return InputRequired{}, false
	}
	var in InputRequired
	r.Get("inputRequests").ForEach(func(key, v gjson.Result) bool {
		in.Requests = append(in.Requests, InputRequest{Key: key.String(), Method: v.Get("method").String(), Params: json.RawMessage(v.Get("params").Raw)})
		return true
	})
	if st := r.Get("requestState"); st.Exists() {
		in.State = json.RawMessage(st.Raw)
	}
	return in, true
}

// HasElicitation reports whether one of the input requests is an elicitation.
func (in InputRequired) HasElicitation() bool {
	for _, r := range in.Requests {
		if r.Method == "elicitation/create" {
			return true
		}
	}
	return false
}

// RetryParams are the params of a request's retry after an input_required
// result: params as first sent, with the answers as inputResponses and
// the result's requestState as sent, or none when it gave none.
func RetryParams(params json.RawMessage, answers map[string]json.RawMessage, state json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(params)) == 0 {
		params = json.RawMessage("{}")
	}
	out, err := sjson.SetBytes(params, "inputResponses", answers)
	if err != nil {
		return nil, err
	}
	if state != nil {
		return sjson.SetRawBytes(out, "requestState", state)
	}
	return sjson.DeleteBytes(out, "requestState")
}
