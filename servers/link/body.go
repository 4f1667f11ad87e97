package link

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// readBody reads a whole HTTP body of at most MaxMessage bytes. A longer
// one comes back as a *BadMessage with its head; the rest is not read.
func readBody(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxMessage+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxMessage {
		return nil, readIDs(&BadMessage{Head: head(b), Size: len(b), Err: fmt.Errorf("%w (more than %d bytes)", ErrTooLarge, MaxMessage)})
	}
	return b, nil
}

// parseBody reads an HTTP body holding one message or a JSON-RPC batch,
// an array of them. Each message keeps its own bytes. A body that is
// neither is one *BadMessage; a bad element of a batch is its own.
func parseBody(b []byte) ([]Message, []error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '[' {
		m, err := Parse(b)
		if err != nil {
			return nil, []error{readIDs(&BadMessage{Head: head(b), Size: len(b), Err: err})}
		}
		return []Message{m}, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return nil, []error{&BadMessage{Head: head(b), Size: len(b), Err: fmt.Errorf("not a JSON-RPC batch: %w", err)}}
	}
	var ms []Message
	var errs []error
	for _, raw := range raws {
		m, err := Parse(raw)
		if err != nil {
			errs = append(errs, readIDs(&BadMessage{Head: head(raw), Size: len(raw), Err: err}))
			continue
		}
		ms = append(ms, m)
	}
	return ms, errs
}
