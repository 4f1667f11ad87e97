package link

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Message is one JSON-RPC message as its sender wrote it.
type Message struct {
	// Raw is the message, exactly as received (compacted to one line when
	// it arrived over HTTP spread over several).
	Raw json.RawMessage
	// ID is the raw id of a request or response; nil for a notification.
	ID json.RawMessage
	// Method names a request or notification; "" for a response.
	Method string
	// Related is the id of the request whose HTTP response carried this
	// message, where the transport can tell; nil otherwise.
	Related json.RawMessage
	// Status is, for an error response a client Link made of an HTTP
	// error status (4xx, 5xx), that status; 0 otherwise. The Listener
	// answers the host's POST with it, since from revision 2026-07-28 on
	// the status means something (400 for an unsupported version, 404 for
	// an unknown method).
	Status int
}

// envelope is what Parse reads of a message.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// Parse reads the envelope of one message. It fails on anything but a
// JSON object with a method or with a result or an error.
func Parse(raw []byte) (Message, error) {
	var e envelope
	if err := json.Unmarshal(raw, &e); err != nil {
		return Message{}, fmt.Errorf("not a JSON-RPC message: %w", err)
	}
	if e.Method == "" && e.Result == nil && e.Error == nil {
		return Message{}, errors.New("not a JSON-RPC message: no method, result or error")
	}
	id := e.ID
	if bytes.Equal(id, []byte("null")) {
		id = nil
	}
	if e.Method == "" && id == nil && e.Error == nil {
		return Message{}, errors.New("a response without an id")
	}
	if bytes.ContainsAny(raw, "\r\n") {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return Message{}, err
		}
		raw = b.Bytes()
	}
	return Message{Raw: json.RawMessage(raw), ID: id, Method: e.Method}, nil
}

// IsRequest reports whether m is a request: it has a method and an id.
func (m Message) IsRequest() bool { return m.Method != "" && m.ID != nil }

// IsNotification reports whether m is a notification: a method, no id.
func (m Message) IsNotification() bool { return m.Method != "" && m.ID == nil }

// IsResponse reports whether m answers a request.
func (m Message) IsResponse() bool { return m.Method == "" }

// Key is m's id in a form that compares equal for equal ids.
func (m Message) Key() string { return IDKey(m.ID) }

// IDKey returns a raw id in a form that compares equal for equal ids,
// whatever white space the sender put around them.
func IDKey(id json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return string(id)
	}
	return b.String()
}
