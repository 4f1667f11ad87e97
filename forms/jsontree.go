package forms

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/internal/base/textpos"
)

// jsonKind is the JSON type of a node.
type jsonKind int

const (
	nullNode jsonKind = iota
	boolNode
	numberNode
	stringNode
	arrayNode
	objectNode
)

func (k jsonKind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// node is a decoded JSON value that, unlike map[string]any, keeps the order in
// which an object's members were written: servers order their fields on purpose.
type node struct {
	kind    jsonKind
	boolean bool
	number  json.Number
	text    string
	items   []*node
	members []member
}

type member struct {
	key   string
	value *node
}

// get returns the member named key, or nil.
func (n *node) get(key string) *node {
	for _, m := range n.members {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

// value converts n to the generic form encoding/json produces with UseNumber.
func (n *node) value() any {
	switch n.kind {
	case boolNode:
		return n.boolean
	case numberNode:
		return n.number
	case stringNode:
		return n.text
	case arrayNode:
		out := make([]any, len(n.items))
		for i, it := range n.items {
			out[i] = it.value()
		}
		return out
	case objectNode:
		out := make(map[string]any, len(n.members))
		for _, m := range n.members {
			out[m.key] = m.value.value()
		}
		return out
	}
	return nil
}

// SyntaxError reports input that is not JSON, with the line and column where
// reading stopped.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("not JSON: line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// decodeProblem is a defect found while reading otherwise well-formed JSON.
type decodeProblem struct {
	path string
	msg  string
}

// decoder reads one JSON value into a node tree. Duplicate member names and
// excessive depth are recorded as problems rather than silently resolved,
// because parsers disagree on which duplicate wins.
type decoder struct {
	dec      *json.Decoder
	src      []byte
	problems []decodeProblem
}

// decodeTree reads raw as exactly one JSON value.
func decodeTree(raw []byte) (*node, []decodeProblem, error) {
	if !utf8.Valid(raw) {
		bad := 0
		for bad < len(raw) {
			r, size := utf8.DecodeRune(raw[bad:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			bad += size
		}
		line, col := textpos.LineColumn(raw, bad)
		return nil, nil, &SyntaxError{Line: line, Column: col, Msg: "invalid UTF-8"}
	}
	d := &decoder{dec: json.NewDecoder(bytes.NewReader(raw)), src: raw}
	d.dec.UseNumber()
	n, err := d.read("#", 0)
	if err != nil {
		return nil, nil, d.syntaxError(err)
	}
	if _, err := d.dec.Token(); err != io.EOF {
		return nil, nil, d.syntaxError(errors.New("unexpected data after the top-level value"))
	}
	return n, d.problems, nil
}

func (d *decoder) read(path string, depth int) (*node, error) {
	tok, err := d.dec.Token()
	if err != nil {
		return nil, err
	}
	// A bound on depth keeps hostile input from costing unbounded stack.
	if depth > MaxDepth {
		d.problems = append(d.problems, decodeProblem{path, fmt.Sprintf("nested deeper than %d levels; a schema may nest at most %d", MaxDepth, MaxDepth)})
		return &node{kind: nullNode}, d.skip(tok)
	}
	switch t := tok.(type) {
	case nil:
		return &node{kind: nullNode}, nil
	case bool:
		return &node{kind: boolNode, boolean: t}, nil
	case json.Number:
		return &node{kind: numberNode, number: t}, nil
	case string:
		return &node{kind: stringNode, text: t}, nil
	case json.Delim:
		if t == '[' {
			return d.readArray(path, depth)
		}
		return d.readObject(path, depth)
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

func (d *decoder) readArray(path string, depth int) (*node, error) {
	n := &node{kind: arrayNode}
	for d.dec.More() {
		it, err := d.read(path+"/"+strconv.Itoa(len(n.items)), depth+1)
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, it)
	}
	_, err := d.dec.Token() // ']'
	return n, err
}

func (d *decoder) readObject(path string, depth int) (*node, error) {
	n := &node{kind: objectNode}
	seen := make(map[string]bool)
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string) // the decoder only yields strings as object keys
		v, err := d.read(path+"/"+escapePointer(key), depth+1)
		if err != nil {
			return nil, err
		}
		if seen[key] {
			d.problems = append(d.problems, decodeProblem{path, fmt.Sprintf("the key %q appears more than once", key)})
			continue
		}
		seen[key] = true
		n.members = append(n.members, member{key, v})
	}
	_, err := d.dec.Token() // '}'
	return n, err
}

// skip consumes the rest of a value whose first token was tok.
func (d *decoder) skip(tok json.Token) error {
	if delim, ok := tok.(json.Delim); !ok || (delim != '[' && delim != '{') {
		return nil
	}
	for open := 1; open > 0; {
		t, err := d.dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('['), json.Delim('{'):
			open++
		case json.Delim(']'), json.Delim('}'):
			open--
		}
	}
	return nil
}

func (d *decoder) syntaxError(err error) *SyntaxError {
	offset := d.dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		offset = se.Offset
	}
	msg := err.Error()
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "unexpected end of input"
		offset = int64(len(d.src))
	}
	line, col := textpos.LineColumn(d.src, int(offset))
	return &SyntaxError{Line: line, Column: col, Msg: msg}
}

// escapePointer escapes a key for use in a JSON Pointer (RFC 6901).
func escapePointer(key string) string {
	if !strings.ContainsAny(key, "~/") {
		return key
	}
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}
