package endpoint

import (
	"bytes"
	"encoding/json"
)

// Messages go one per line, through package lines, each of at most
// MaxMessage bytes either way.

// encode marshals m as one line, without its newline.
func encode(m *message) ([]byte, error) {
	m.JSONRPC = "2.0"
	return marshal(m)
}

// marshal is json.Marshal without escaping <, > and &: raw JSON passed on
// (a server's elicitation params, the result for it) keeps its strings
// byte for byte; only the whitespace between tokens goes, as one message
// per line needs.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
