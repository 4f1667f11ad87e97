package wire

import "fmt"

// CodeInvalidParams is the JSON-RPC error code of a request whose
// parameters cannot be used.
const CodeInvalidParams = -32602

// CodeRateLimited is the JSON-RPC error code of a request refused because
// its server asked too often (one of the codes JSON-RPC leaves to
// implementations).
const CodeRateLimited = -32000

// RPCError is a JSON-RPC error to send back instead of a result.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }
