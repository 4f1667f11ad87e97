package bridge

import (
	"encoding/json"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// The JSON-RPC error codes the bridge sends of its own.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeInvalidParams  = -32602
	codeServerGone     = -32000 // the server went away before answering
	codeInputFailed    = -32603 // input_required rounds the bridge could not finish
	codeNotAsked       = -32603 // an elicitation Elicit Desk could not ask the person
)

// codeURLRequired is 2025-11-25's URLElicitationRequiredError.
const codeURLRequired = -32042

// rpcError is the error member of a JSON-RPC response.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// wireMessage is how the bridge writes a message of its own.
type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  any             `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

func (w wireMessage) message(related json.RawMessage) link.Message {
	w.JSONRPC = "2.0"
	raw, err := json.Marshal(w)
	if err != nil {
		panic(err) // only the bridge's own values, which always encode
	}
	return link.Message{Raw: raw, ID: w.ID, Method: w.Method, Related: related}
}

// result answers request id with result.
func result(id, result json.RawMessage) link.Message {
	return wireMessage{ID: id, Result: result}.message(nil)
}

// failure answers request id with an error; id null when it is unknown.
func failure(id json.RawMessage, e rpcError) link.Message {
	if id == nil {
		id = json.RawMessage("null")
	}
	return wireMessage{ID: id, Error: &e}.message(id)
}

// notification is a notification of the bridge's own, sent on the stream
// of the request related, if any.
func notification(method string, params any, related json.RawMessage) link.Message {
	return wireMessage{Method: method, Params: params}.message(related)
}

// cancelAnswer is the ElicitResult of an elicitation nobody answered.
var cancelAnswer = json.RawMessage(`{"action":"cancel"}`)

// cancelled returns the id key of the request a notifications/cancelled
// gives up.
func cancelled(m link.Message) string {
	return link.IDKey(json.RawMessage(gjson.GetBytes(m.Raw, "params.requestId").Raw))
}
