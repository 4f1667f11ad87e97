package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// The limits on what a server may send in one elicitation. A request
// over any of them is answered at once with -32602 and the reason: mcp-go
// would otherwise drop what it cannot decode and leave the server waiting
// for ever, and no person reads more.
const (
	// MaxParams is the largest elicitation parameters read, in bytes.
	MaxParams = 4 << 20
	// MaxDepth is how deeply parameters may nest objects and arrays.
	MaxDepth = 64
)

// CheckParams refuses parameters that cannot be read, represented or
// shown, with the reason in plain words: over MaxParams, nested deeper
// than MaxDepth, not UTF-8, not JSON, or holding a number beyond float64.
func CheckParams(raw json.RawMessage) *RPCError {
	if len(raw) > MaxParams {
		return tooLarge(len(raw))
	}
	h := readHead(raw)
	if h.depth > MaxDepth {
		return invalid("the request nests %d levels deep; Elicit Desk reads at most %d", h.depth, MaxDepth)
	}
	if !utf8.Valid(raw) {
		return invalid("the request is not valid UTF-8")
	}
	if !json.Valid(raw) {
		return notJSON()
	}
	if h.badNumber != nil {
		return invalid("the request has a number out of range: %.40s", h.badNumber)
	}
	return nil
}

// tooLarge is the refusal of a request of size bytes.
func tooLarge(size int) *RPCError {
	return invalid("the request is %.1f MB; Elicit Desk reads at most %d MB", float64(size)/(1<<20), MaxParams>>20)
}

func notJSON() *RPCError { return invalid("the request is not valid JSON") }

func invalid(format string, args ...any) *RPCError {
	return &RPCError{Code: CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

type refusedKey struct{}

// Refused is the refusal of a request the wire could not keep whole, which
// the AnswerFunc it is passed to returns; nil for any other request.
func Refused(ctx context.Context) *RPCError {
	err, _ := ctx.Value(refusedKey{}).(*RPCError)
	return err
}
