package link

import (
	"bytes"
	"encoding/json"
)

// maxIDText bounds an id or method an envelope keeps; a longer one is
// unreadable.
const maxIDText = 1 << 10

// envelope reads a message in pieces for what says what it is, keeping
// nothing else: the raw values of its last top-level "id" and "method".
// It tells what a message too long to keep was, wherever in it these
// stand (a server may put the id after a result of 100 MB). id and
// method are nil when absent, empty when over maxIDText.
type envelope struct {
	id, method []byte

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

// fill fills in bad's ID and Method from what s read; a nil s read nothing.
func (s *envelope) fill(bad *BadMessage) {
	if s == nil {
		return
	}
	if len(s.id) > 0 && !bytes.Equal(s.id, []byte("null")) && json.Valid(s.id) {
		bad.ID = json.RawMessage(bytes.Clone(s.id))
	}
	var method string
	if json.Unmarshal(s.method, &method) == nil {
		bad.Method = method
	}
}

// readIDs fills in bad's ID and Method from its Head.
func readIDs(bad *BadMessage) *BadMessage {
	var env envelope
	env.write(bad.Head)
	env.fill(bad)
	return bad
}
