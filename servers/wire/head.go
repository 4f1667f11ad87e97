package wire

import (
	"bytes"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// head is what a tap reads of a JSON-RPC message in one pass, whatever its
// parameters hold: the raw id, method and params, and how deeply it nests.
// A member cut off or missing is nil. Unlike encoding/json it reads a
// message nested past 10,000 levels, or one cut short, so that such a
// request can still be answered.
type head struct {
	id, method, params []byte
	depth              int
}

func readHead(msg []byte) head {
	var h head
	var key []byte
	depth, keyStart, valueStart := 0, -1, -1
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
		}
	}
	return h
}

func (h *head) set(key string, value []byte) {
	switch key {
	case "id":
		h.id = value
	case "method":
		h.method = value
	case "params":
		h.params = value
	}
}

// Method is the message's method, "" for a response or when unreadable.
func (h head) Method() string {
	var m string
	json.Unmarshal(h.method, &m)
	return m
}

// ID is the message's id; false when it has none or it cannot be read.
func (h head) ID() (mcp.RequestId, bool) {
	var id mcp.RequestId
	if json.Unmarshal(h.id, &id) != nil || id.IsNil() {
		return id, false
	}
	return id, true
}
