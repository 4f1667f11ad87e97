package endpoint

import (
	"encoding/json"
	"fmt"
)

// Version is the endpoint protocol this build speaks. A client's first
// message is the handshake carrying it; a server that speaks another
// version answers with an error and hangs up, so an app and a command of
// different releases say so instead of misreading each other.
const Version = 1

// MaxMessage is the largest message, newline excluded, either side takes.
// A larger one is answered with an error and the connection is closed.
const MaxMessage = 4 << 20

// The methods. Requests carry an id and get a response with the same id;
// several may be in flight on one connection. A notification has no id and
// gets no response.
const (
	// methodHello is the handshake: params helloParams, result helloParams.
	methodHello = "endpoint/hello"
	// methodFront brings the app to the front: no params, result {}.
	methodFront = "app/front"
	// methodCallTool calls a tool of a configured server: params ToolCall,
	// result the tool's CallToolResult.
	methodCallTool = "tools/call"
	// methodCancelled is a notification that the request with params'
	// requestId is no longer wanted; its context is cancelled.
	methodCancelled = "notifications/cancelled"
)

// Error codes: JSON-RPC's own, then the endpoint's.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeNoMethod       = -32601
	codeInvalidParams  = -32602
	codeFailed         = -32000 // the handler could not do it
	codeVersion        = -32001 // the handshake's version is not Version
	codeTooLarge       = -32002 // a message longer than MaxMessage
	codeCancelled      = -32800 // the request was cancelled (as in LSP)
)

// message is any JSON-RPC 2.0 message: a request has Method and ID, a
// notification Method only, a response ID and Result or Error.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// helloParams is the handshake, both ways.
type helloParams struct {
	Version int `json:"version"`
}

// cancelledParams names the request a notifications/cancelled gives up.
type cancelledParams struct {
	RequestID json.RawMessage `json:"requestId"`
}

// ToolCall asks the app to call a tool of one of its configured servers.
type ToolCall struct {
	Server    string         `json:"server"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments,omitempty"`
}

// Error is a JSON-RPC error. A Handler may return one to choose the code;
// any other error is sent with a generic code and its text. The message of
// one a Client receives is the peer's words, as sent: whoever shows it
// goes through package untrusted.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// errorf makes an Error with a formatted message.
func errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
