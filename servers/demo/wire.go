package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// askMetaKey tags an outgoing elicitation/create in its params._meta so that
// the wire can report the JSON-RPC id mcp-go gave it.
const askMetaKey = "elicitdesk.demo/ask"

// wire is the stdout of a stdio session: every message the server writes
// passes through it. mcp-go v1.2.1 neither tells a tool the JSON-RPC id of the
// elicitation/create it sends nor sends notifications/cancelled when that
// request's context ends, so the wire records the ids of tagged requests, and
// writes notifications in line with the responses around them (mcp-go's own
// notifications go through a queue and may land after the tool's result).
type wire struct {
	mu      sync.Mutex
	out     io.Writer
	partial []byte                     // an unfinished line, should a write split one
	ids     map[string]json.RawMessage // ask tag → JSON-RPC id of the request
}

func newWire(out io.Writer) *wire {
	return &wire{out: out, ids: make(map[string]json.RawMessage)}
}

// Write passes p through, noting the id of any tagged elicitation/create.
// The lock also keeps messages whole: mcp-go writes server-initiated requests
// without the lock it uses for responses.
func (w *wire) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.observe(p)
	return w.out.Write(p)
}

// observe scans the complete lines in p. Only lines carrying the tag are
// decoded, so untagged traffic costs a substring search.
func (w *wire) observe(p []byte) {
	data := p
	if len(w.partial) > 0 {
		data = append(w.partial, p...)
	}
	for {
		line, rest, ok := bytes.Cut(data, []byte{'\n'})
		if !ok {
			break
		}
		if bytes.Contains(line, []byte(askMetaKey)) {
			w.record(line)
		}
		data = rest
	}
	w.partial = append([]byte(nil), data...)
}

func (w *wire) record(line []byte) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Meta map[string]any `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.Method != string(mcp.MethodElicitationCreate) || len(msg.ID) == 0 {
		return
	}
	if tag, ok := msg.Params.Meta[askMetaKey].(string); ok {
		w.ids[tag] = msg.ID
	}
}

// requestID returns the JSON-RPC id of the elicitation/create tagged tag.
func (w *wire) requestID(tag string) (json.RawMessage, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	id, ok := w.ids[tag]
	return id, ok
}

// forget drops what was recorded for tag once its request is over.
func (w *wire) forget(tag string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.ids, tag)
}

// notify writes a notification straight away, ahead of whatever the server
// writes next (such as the result of the tool that sent it).
func (w *wire) notify(method string, params any) error {
	msg, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{mcp.JSONRPC_VERSION, method, params})
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err = w.out.Write(append(msg, '\n'))
	return err
}

type wireKey struct{}

func withWire(ctx context.Context, w *wire) context.Context {
	return context.WithValue(ctx, wireKey{}, w)
}

// wireFrom returns the stdio wire of the session serving ctx, or nil when the
// server runs some other way (in process, for one).
func wireFrom(ctx context.Context) *wire {
	w, _ := ctx.Value(wireKey{}).(*wire)
	return w
}
