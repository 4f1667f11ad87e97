package link

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/tidwall/gjson"
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
	// HTTP is, for a message a client Link read from an HTTP response
	// or made of one's error status, that response's status and headers,
	// as the server sent them; nil otherwise. The traffic record shows
	// them.
	HTTP *Response
	// Cause is, for an error response a client Link made up because the
	// request could not be delivered, why: the HTTP client's error (a
	// sign-in's, a refused connection) or the HTTP status's. A client
	// that shows the error keeps it for its type; nil otherwise.
	Cause error
}

// Response is the status and headers of the HTTP response that carried
// a message; the messages of one response share it, and none changes it.
type Response struct {
	Status int
	Header http.Header
}

// responseOf is resp's status and headers.
func responseOf(resp *http.Response) *Response {
	return &Response{Status: resp.StatusCode, Header: resp.Header}
}

// Parse reads the envelope of one message, in one pass over its top
// level that skips over the params or result unread. It fails on anything
// but a JSON object with a method or with a result or an error.
func Parse(raw []byte) (Message, error) {
	if !gjson.ValidBytes(raw) {
		return Message{}, errNotJSON(raw)
	}
	v := gjson.ParseBytes(raw)
	if !v.IsObject() {
		return Message{}, errors.New("not a JSON-RPC message: not an object")
	}
	var m Message
	var result, failed bool
	v.ForEach(func(key, value gjson.Result) bool {
		switch key.Str {
		case "id":
			if value.Type != gjson.Null {
				m.ID = json.RawMessage(value.Raw)
			}
		case "method":
			m.Method = value.String()
		case "result":
			result = true
		case "error":
			failed = true
		}
		return true
	})
	switch {
	case m.Method == "" && !result && !failed:
		return Message{}, errors.New("not a JSON-RPC message: no method, result or error")
	case m.Method == "" && m.ID == nil && !failed: // only an error may answer an unknown id
		return Message{}, errors.New("a response without an id")
	}
	// IndexByte, unlike ContainsAny, runs at memory speed on a large result.
	if bytes.IndexByte(raw, '\n') >= 0 || bytes.IndexByte(raw, '\r') >= 0 {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return Message{}, err
		}
		raw = b.Bytes()
	}
	m.Raw = json.RawMessage(raw)
	return m, nil
}

// errNotJSON says why raw is not JSON, as encoding/json words it.
func errNotJSON(raw []byte) error {
	var v any
	err := json.Unmarshal(raw, &v)
	if err == nil {
		err = errors.New("invalid JSON")
	}
	return fmt.Errorf("not a JSON-RPC message: %w", err)
}

// IsRequest reports whether m is a request: it has a method and an id.
func (m Message) IsRequest() bool { return m.Method != "" && m.ID != nil }

// IsNotification reports whether m is a notification: a method, no id.
func (m Message) IsNotification() bool { return m.Method != "" && m.ID == nil }

// IsResponse reports whether m answers a request.
func (m Message) IsResponse() bool { return m.Method == "" }

// Key is m's id in a form that compares equal for equal ids.
func (m Message) Key() string { return IDKey(m.ID) }

// Answers returns the key of the request a response answers: its id's,
// or, for an error whose id the server left null, that of the request
// whose HTTP response carried it (Related).
func (m Message) Answers() string {
	if m.ID == nil && m.Related != nil {
		return IDKey(m.Related)
	}
	return m.Key()
}

// IDKey returns a raw id in a form that compares equal for equal ids,
// whatever white space the sender put around them.
func IDKey(id json.RawMessage) string {
	if !bytes.ContainsAny(id, " \t\r\n") {
		return string(id) // compact already, as ids nearly always are
	}
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return string(id)
	}
	return b.String()
}
