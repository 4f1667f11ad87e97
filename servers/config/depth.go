package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// maxDepth is how deeply a value may nest. Config needs a handful of
// levels; the limit keeps what Save writes back well inside what
// encoding/json and other clients read, and lets a deeper value be
// blamed on its own entry.
const maxDepth = 1000

// errTooDeep says a value nests past maxDepth.
var errTooDeep = fmt.Errorf("nests deeper than %d levels", maxDepth)

// checkSyntax returns the first syntax error in data, which must hold one
// JSON value, and its offset. Unlike json.Valid it has no depth limit, so
// one deep value does not spoil the whole file.
func checkSyntax(data []byte) (off int, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	_, err = skipValue(dec, maxDepth)
	off = int(dec.InputOffset())
	if err == nil {
		if off = skip(data, dec.InputOffset(), " \t\r\n"); off == len(data) {
			return 0, nil
		}
		err = fmt.Errorf("invalid character %q after top-level value", data[off])
	}
	// encoding/json says more exactly what is wrong and where, unless it
	// stopped at its depth limit before reaching the fault.
	uerr := json.Unmarshal(data, new(json.RawMessage))
	se, ok := errors.AsType[*json.SyntaxError](uerr)
	if !ok || int(se.Offset) < off {
		return off, err
	}
	return int(se.Offset) - 1, uerr // Offset counts the offending byte
}

// skipValue reads one value from dec by its tokens, keeping only a count
// of open brackets, so any depth costs linear time and no stack. deep is
// the offset in dec's input of the first bracket nested more than limit
// levels into the value, or 0.
func skipValue(dec *json.Decoder, limit int) (deep int, err error) {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return deep, err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			if depth > limit && deep == 0 {
				deep = int(dec.InputOffset()) - 1
			}
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return deep, nil
		}
	}
}

// nestsTooDeep reports whether an entry, valid JSON, nests past its own
// level plus maxDepth, which Load would have blamed on the entry.
func nestsTooDeep(entry json.RawMessage) bool {
	deep, err := skipValue(json.NewDecoder(bytes.NewReader(entry)), maxDepth+1)
	return err == nil && deep != 0
}
