package wire

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonnum"
	"github.com/mark3labs/mcp-go/mcp"
)

// head is what a tap reads of a JSON-RPC message in one pass, whatever its
// parameters hold: the raw id, method and params, how deeply it nests and
// its first number jsonnum refuses. A member cut off or missing is nil. Unlike encoding/json it reads a
// message nested past 10,000 levels, or one cut short, so that such a
// request can still be answered.
type head struct {
	id, method, params []byte
	depth              int
	badNumber          []byte
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

// maxIDText bounds an id or method an envelope keeps; a longer one is
// unreadable.
const maxIDText = 1 << 10

// envelope reads a message in pieces for what says what it is, keeping
// nothing else: the raw values of its last top-level "id" and "method",
// and whether it has a top-level "result" or "error", as an answer does.
// It tells what a message too long to keep was. id and method are nil
// when absent, empty when over maxIDText.
type envelope struct {
	id, method []byte
	answer     bool

	field                        *[]byte // id or method while its value is read
	value                        []byte  // that value
	key                          []byte  // the top-level key being read, cut past "method"
	depth                        int
	inString, escaped, expectKey bool
	inKey, tooLong               bool
}

func (s *envelope) write(p []byte) {
	for _, c := range p {
		if s.inString {
			s.keep(c)
			switch {
			case s.escaped:
				s.escaped = false
			case c == '\\':
				s.escaped = true
			case c == '"':
				s.inString, s.inKey = false, false
				continue
			}
			if s.inKey && len(s.key) <= len("method") {
				s.key = append(s.key, c)
			}
			continue
		}
		switch c {
		case '"':
			s.inString = true
			if s.depth == 1 && s.expectKey {
				s.inKey, s.expectKey, s.key = true, false, s.key[:0]
			}
		case ':':
			if s.depth == 1 {
				switch string(s.key) {
				case "id":
					s.field, s.tooLong, s.value = &s.id, false, s.value[:0]
					continue
				case "method":
					s.field, s.tooLong, s.value = &s.method, false, s.value[:0]
					continue
				case "result", "error":
					s.answer = true
				}
			}
		case '{', '[':
			s.depth++
			if s.depth == 1 {
				s.expectKey = c == '{'
			}
		case '}', ']', ',':
			if s.depth == 1 && s.field != nil {
				*s.field = []byte{}
				if !s.tooLong {
					*s.field = append(*s.field, bytes.TrimSpace(s.value)...)
				}
				s.field = nil
			}
			if c == ',' {
				s.expectKey = s.depth == 1
			} else {
				s.depth--
			}
		}
		s.keep(c)
	}
}

// keep adds c to the value being read, if one is.
func (s *envelope) keep(c byte) {
	if s.field == nil {
		return
	}
	if len(s.value) == maxIDText {
		s.tooLong = true
		return
	}
	s.value = append(s.value, c)
}
