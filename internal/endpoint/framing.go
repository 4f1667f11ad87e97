package endpoint

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// errTooLarge is the reading side's error for a message over MaxMessage.
var errTooLarge = errors.New("message too large")

// readMessage reads one newline-terminated message of at most max bytes,
// newline excluded. A longer one is errTooLarge; the rest of it is not
// read, so the connection cannot be used further. Blank lines are skipped.
func readMessage(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 {
			return nil, errTooLarge
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			if line = bytes.TrimSpace(line); len(line) > 0 {
				return line, nil
			}
		case errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF) && len(bytes.TrimSpace(line)) > 0:
			return nil, io.ErrUnexpectedEOF
		default:
			return nil, err
		}
	}
}

// encode marshals m as one line.
func encode(m *message) ([]byte, error) {
	m.JSONRPC = "2.0"
	return marshal(m) // Encode ends it with the newline
}

// marshal is json.Marshal without escaping <, > and &, and with a newline
// at the end: raw JSON passed on (a server's elicitation params, the
// result for it) keeps its strings byte for byte; only the whitespace
// between tokens goes, as one message per line needs.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
