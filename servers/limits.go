package servers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonnum"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// The limits on what a server may send in one request. A request over
// any of them is answered at once with -32602 and the reason: no person
// reads more, and the server must not wait for an answer that never comes.
const (
	// MaxParams is the largest elicitation parameters read, in bytes.
	MaxParams = 4 << 20
	// MaxDepth is how deeply parameters may nest objects and arrays.
	MaxDepth = 64
)

// CheckParams refuses parameters that cannot be read, represented or
// shown, with the reason in plain words: over MaxParams, nested deeper
// than MaxDepth, not UTF-8, not JSON, or holding a number beyond float64.
func CheckParams(raw json.RawMessage) *jsonrpc.Error {
	if len(raw) > MaxParams {
		return tooLarge(len(raw))
	}
	h := readHead(raw)
	if h.depth > MaxDepth {
		return invalidParams("the request nests %d levels deep; Elicit Desk reads at most %d", h.depth, MaxDepth)
	}
	if !utf8.Valid(raw) {
		return invalidParams("the request is not valid UTF-8")
	}
	if !json.Valid(raw) {
		return notJSON()
	}
	if h.badNumber != nil {
		return invalidParams("the request has a number out of range: %.40s", h.badNumber)
	}
	return nil
}

// badRequest is the refusal of a server's request that could not be read
// at all: too large, or the reason CheckParams gives for its params.
func badRequest(bad *link.BadMessage) *jsonrpc.Error {
	if bad.Size > link.MaxMessage {
		return tooLarge(bad.Size)
	}
	h := readHead(bad.Head)
	if h.params != nil {
		if e := CheckParams(h.params); e != nil {
			return e
		}
	}
	if h.depth > MaxDepth+1 { // the params, inside the message
		return invalidParams("the request nests at least %d levels deep; Elicit Desk reads at most %d", h.depth-1, MaxDepth)
	}
	if !utf8.Valid(bad.Head) {
		return invalidParams("the request is not valid UTF-8")
	}
	return notJSON()
}

// tooLarge is the refusal of a request of size bytes.
func tooLarge(size int) *jsonrpc.Error {
	return invalidParams("the request is %.1f MB; Elicit Desk reads at most %d MB", float64(size)/(1<<20), MaxParams>>20)
}

func notJSON() *jsonrpc.Error { return invalidParams("the request is not valid JSON") }

func invalidParams(format string, args ...any) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// head is what one pass over a JSON-RPC message or its params reads,
// whatever they hold: its raw params, how deeply it nests
// and its first number jsonnum refuses. A member cut off or missing is nil. Unlike encoding/json it reads a
// message nested past 10,000 levels, or one cut short, so that such a
// request can still be answered.
type head struct {
	params    []byte
	depth     int
	badNumber []byte
}

func readHead(msg []byte) head {
	var h head
	var key []byte
	depth, keyStart, valueStart, numStart := 0, -1, -1, -1
	inString, escaped, expectKey := false, false, false
	for i, c := range msg {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if keyStart >= 0 {
					key, keyStart = msg[keyStart:i], -1
				}
			}
			continue
		}
		if numStart >= 0 && !strings.ContainsRune("0123456789+-.eE", rune(c)) {
			h.checkNumber(msg[numStart:i])
			numStart = -1
		}
		switch c {
		case '"':
			inString = true
			if depth == 1 && expectKey {
				keyStart, expectKey = i+1, false
			}
		case ':':
			if depth == 1 {
				valueStart = i + 1
			}
		case '{', '[':
			depth++
			h.depth = max(h.depth, depth)
			if depth == 1 {
				expectKey = c == '{'
			}
		case '}', ']', ',':
			if depth == 1 && valueStart >= 0 {
				h.set(string(key), bytes.TrimSpace(msg[valueStart:i]))
				valueStart = -1
			}
			if c == ',' {
				expectKey = depth == 1
			} else {
				depth--
			}
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if numStart < 0 {
				numStart = i
			}
		}
	}
	if numStart >= 0 {
		h.checkNumber(msg[numStart:])
	}
	return h
}

// checkNumber notes n if it is the first number jsonnum refuses. Only an
// exponent or many digits can take a number there; text that is no number
// at all is left to the JSON check.
func (h *head) checkNumber(n []byte) {
	if h.badNumber != nil || len(n) <= 300 && !bytes.ContainsAny(n, "eE") {
		return
	}
	if p := jsonnum.Check(string(n)); p != jsonnum.OK && p != jsonnum.NotNumber {
		h.badNumber = n
	}
}

func (h *head) set(key string, value []byte) {
	if key == "params" {
		h.params = value
	}
}
