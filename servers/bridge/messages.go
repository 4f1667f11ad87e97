package bridge

import (
	"encoding/json"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// wireMessage is how the bridge writes a message of its own.
type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  any             `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *jsonrpc.Error  `json:"error,omitempty"`
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
func failure(id json.RawMessage, e *jsonrpc.Error) link.Message {
	if id == nil {
		id = json.RawMessage("null")
	}
	return wireMessage{ID: id, Error: e}.message(id)
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
