// Package jsonrpc holds the one JSON-RPC error type of Elicit Desk and the
// codes it uses. Every layer that makes, reads or records a JSON-RPC error
// (the links, the MCP client, the bridge, the endpoint, History) uses
// Error, so a refusal keeps its code and data from the wire to a window.
package jsonrpc

import (
	"encoding/json"
	"errors"
)

// Codes from JSON-RPC 2.0 and MCP.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternal       = -32603
	// CodeServer is the code of errors of our own that JSON-RPC leaves to
	// implementations: a transport that failed, a server that went away, a
	// request refused by its server's limits.
	CodeServer = -32000
	// CodeUnsupportedVersion is 2026-07-28's UnsupportedProtocolVersionError.
	CodeUnsupportedVersion = -32022
	// CodeURLRequired is 2025-11-25's URLElicitationRequiredError.
	CodeURLRequired = -32042
)

// Error is a JSON-RPC error, sent back instead of a result or received
// from a peer. The Message and Data of one received are the peer's words:
// whoever shows them goes through package untrusted.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// As returns err's *Error, or nil when it has none.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}
