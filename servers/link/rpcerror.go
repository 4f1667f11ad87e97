package link

import (
	"encoding/json"
	"unicode/utf8"
)

// JSON-RPC error codes the links use for answers they make up.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeInvalidParams  = -32602
	// codeTransport is the code of a response a client Link makes up for
	// a request the server will not answer: the HTTP request failed or
	// the stream ended. It is in the range JSON-RPC leaves to
	// implementations for server errors.
	codeTransport = -32000
)

// excerptSize bounds how much of a server's error body a made-up answer
// quotes.
const excerptSize = 512

// errorResponse is a JSON-RPC error response to the request with the given
// raw id (null when nil), as a Message whose Related is that id too.
func errorResponse(id json.RawMessage, code int, msg string) Message {
	if id == nil {
		id = json.RawMessage("null")
	}
	raw, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
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
