package link

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// excerptSize bounds how much of a server's error body a made-up answer
// quotes.
const excerptSize = 512

// errorResponse is a JSON-RPC error response to the request with the given
// raw id (null when nil), as a Message whose Related is that id too. A
// client Link makes one with jsonrpc.CodeServer for a request the server
// will not answer: the HTTP request failed or the stream ended.
func errorResponse(id json.RawMessage, code int, msg string) Message {
	if id == nil {
		id = json.RawMessage("null")
	}
	raw, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: jsonrpc.Error{Code: code, Message: msg}})
	m := Message{Raw: raw, ID: id, Related: id}
	if string(id) == "null" {
		m.ID, m.Related = nil, nil
	}
	return m
}

// excerpt returns at most excerptSize bytes of b as valid UTF-8, marking a
// cut with an ellipsis.
func excerpt(b []byte) string {
	cut := len(b) > excerptSize
	if cut {
		b = b[:excerptSize]
	}
	s := string(b)
	if !utf8.ValidString(s) {
		s = string([]rune(s)) // replaces invalid bytes
	}
	if cut {
		s += "…"
	}
	return s
}
