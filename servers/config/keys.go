package config

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
)

// entryKey is one key of an entry that Elicit Desk reads: how its value
// decodes into a Server, and how Save writes the Server's value back.
type entryKey struct {
	name   string
	decode func(s *Server, v json.RawMessage) *valueError
	// merge returns the value to write given the value read (nil when
	// absent); ok is false when the key should be left out.
	merge func(s Server, old json.RawMessage) (v json.RawMessage, ok bool, err error)
}

// entryKeys are the keys of an entry Elicit Desk reads, in the order Save
// adds new ones. Every fact about a key lives in its row.
func entryKeys() []entryKey {
	return []entryKey{
		newKey("command", func(s *Server) *string { return &s.Command }, decodeString, equal, nil),
		newKey("args", func(s *Server) *[]string { return &s.Args }, decodeStrings, slices.Equal, nil),
		newKey("env", func(s *Server) *map[string]string { return &s.Env }, decodeStringMap, maps.Equal, nil),
		newKey("cwd", func(s *Server) *string { return &s.Cwd }, decodeString, equal, nil),
		newKey("type", func(s *Server) *Transport { return &s.Transport }, decodeTransport, equal,
			func(s Server) bool { return s.Transport == s.defaultTransport() }),
		newKey("url", func(s *Server) *string { return &s.URL }, decodeString, equal, nil),
		newKey("headers", func(s *Server) *map[string]string { return &s.Headers }, decodeStringMap, maps.Equal, nil),
		newKey("disabled", func(s *Server) *bool { return &s.Disabled }, decodeBool, equal, nil),
		newKey("protocolVersion", func(s *Server) *string { return &s.ProtocolVersion }, decodeString, equal, nil),
		newKey("maxWaiting", func(s *Server) *int { return &s.MaxWaiting }, decodeCount, equal, nil),
		newKey("maxPerMinute", func(s *Server) *int { return &s.MaxPerMinute }, decodeCount, equal, nil),
	}
}

// newKey is the row of a key held in field: read with decode, compared
// with eq, and left out when empty or when implied says it goes without
// saying.
func newKey[T any](name string, field func(*Server) *T, decode func(json.RawMessage) (T, *valueError), eq func(T, T) bool, implied func(Server) bool) entryKey {
	return entryKey{
		name: name,
		decode: func(s *Server, v json.RawMessage) *valueError {
			val, verr := decode(v)
			*field(s) = val
			return verr
		},
		merge: func(s Server, old json.RawMessage) (json.RawMessage, bool, error) {
			cur := *field(&s)
			empty := isEmpty(cur) || (implied != nil && implied(s))
			return mergeField(old, cur, decode, empty, eq)
		},
	}
}

// keyNamed returns the row of a key Elicit Desk reads.
func keyNamed(name string) (entryKey, bool) {
	keys := entryKeys()
	i := slices.IndexFunc(keys, func(k entryKey) bool { return k.name == name })
	if i < 0 {
		return entryKey{}, false
	}
	return keys[i], true
}

// isEmpty reports whether v is a value Save leaves out: zero, or an empty
// list or map.
func isEmpty(v any) bool {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Map:
		return rv.Len() == 0
	}
	return rv.IsZero()
}

// mergeField keeps the value read when it still says cur, or when it could
// not be read and cur is empty (so Save never loses what it did not
// understand); otherwise it encodes cur, leaving empty values out.
func mergeField[T any](old json.RawMessage, cur T, decode func(json.RawMessage) (T, *valueError), empty bool, eq func(T, T) bool) (json.RawMessage, bool, error) {
	if old != nil {
		prev, verr := decode(old)
		if (verr == nil && eq(prev, cur)) || (verr != nil && empty) {
			return old, true, nil
		}
	}
	if empty {
		return nil, false, nil
	}
	v, err := encode(cur)
	return v, err == nil, err
}

// equal compares comparable field values for mergeField.
func equal[T comparable](a, b T) bool { return a == b }

// valueError is a problem off bytes into a JSON value.
type valueError struct {
	off int
	msg string
}

// decodeString reads a string; null reads as empty.
func decodeString(v json.RawMessage) (string, *valueError) {
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", &valueError{msg: "must be a string"}
	}
	return s, nil
}

// decodeTransport reads a "type" value without judging it.
func decodeTransport(v json.RawMessage) (Transport, *valueError) {
	s, verr := decodeString(v)
	return Transport(s), verr
}

// decodeBool reads a boolean; null reads as false.
func decodeBool(v json.RawMessage) (bool, *valueError) {
	var b bool
	if json.Unmarshal(v, &b) != nil {
		return false, &valueError{msg: "must be true or false"}
	}
	return b, nil
}

// decodeCount reads a whole number of at least 1.
func decodeCount(v json.RawMessage) (int, *valueError) {
	var n int
	if json.Unmarshal(v, &n) != nil || n < 1 {
		return 0, &valueError{msg: "must be a whole number of 1 or more"}
	}
	return n, nil
}

// decodeStrings reads an array of strings, pointing at the first bad item.
func decodeStrings(v json.RawMessage) ([]string, *valueError) {
	if string(v) == "null" {
		return nil, nil
	}
	items, ok := arrayElements(v, 0)
	if !ok {
		return nil, &valueError{msg: "must be an array of strings"}
	}
	var out []string
	for i, it := range items {
		s, verr := decodeString(it.value)
		if verr != nil {
			return nil, &valueError{off: it.valOff, msg: fmt.Sprintf("item %d must be a string", i)}
		}
		out = append(out, s)
	}
	return out, nil
}

// decodeStringMap reads an object of strings, pointing at the first bad member.
func decodeStringMap(v json.RawMessage) (map[string]string, *valueError) {
	if string(v) == "null" {
		return nil, nil
	}
	members, ok := objectMembers(v, 0)
	if !ok {
		return nil, &valueError{msg: "must be an object of strings"}
	}
	out := make(map[string]string, len(members))
	for _, m := range members {
		if _, dup := out[m.key]; dup {
			return nil, &valueError{off: m.keyOff, msg: fmt.Sprintf("has duplicate key %q", m.key)}
		}
		s, verr := decodeString(m.value)
		if verr != nil {
			return nil, &valueError{off: m.valOff, msg: fmt.Sprintf("value of %q must be a string", m.key)}
		}
		out[m.key] = s
	}
	return out, nil
}
