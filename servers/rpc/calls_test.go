package rpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// TestCallsOfAProxy: a proxy's own calls carry ids of its prefix, keep
// what they are about while they wait, take only the answers to them,
// and tell the other side when one is given up.
func TestCallsOfAProxy(t *testing.T) {
	fromCalls, toOther := io.Pipe()
	t.Cleanup(func() { fromCalls.Close() })
	sent := bufio.NewScanner(fromCalls)
	life, end := context.WithCancelCause(context.Background())
	defer end(nil)
	calls := NewCalls[string](life, link.NewLines(eof{}, toOther), "proxy-x-")
	build := func(id json.RawMessage) (link.Message, error) {
		raw, err := Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "m"})
		return link.Message{Raw: raw, ID: id, Method: "m"}, err
	}

	got := make(chan error, 1)
	ctx, cancel := context.WithCancelCause(t.Context())
	go func() {
		m, err := calls.Call(ctx, "first", build)
		if err == nil && gjson.GetBytes(m.Raw, "result.ok").Bool() {
			err = errors.New("the answer to the first reached it")
		}
		got <- err
	}()
	sent.Scan()
	first := gjson.Get(sent.Text(), "id")
	if first.String() != "proxy-x-1" {
		t.Fatalf("the first call's id is %s", first.Raw)
	}
	if about, ok := calls.About(link.IDKey(json.RawMessage(first.Raw))); !ok || about != "first" {
		t.Errorf("About: %q %v", about, ok)
	}
	if calls.Answer(link.Message{Raw: json.RawMessage(`{"jsonrpc":"2.0","id":1,"result":{}}`), ID: json.RawMessage(`1`)}) {
		t.Error("an answer to an id that is not the proxy's was taken")
	}

	cancel(errors.New("the host gave up"))
	sent.Scan()
	if c := gjson.Parse(sent.Text()); c.Get("method").String() != "notifications/cancelled" || c.Get("params.requestId").Raw != first.Raw || c.Get("params.reason").String() != "the host gave up" {
		t.Errorf("sent %s, want notifications/cancelled of the first", sent.Text())
	}
	if err := <-got; err == nil || err.Error() != "the host gave up" {
		t.Errorf("the call given up returned %v", err)
	}
	if _, ok := calls.About(link.IDKey(json.RawMessage(first.Raw))); ok || calls.Answer(link.Message{Raw: json.RawMessage(`{"jsonrpc":"2.0","id":` + first.Raw + `,"result":{"ok":true}}`), ID: json.RawMessage(first.Raw)}) {
		t.Error("a call given up still waits")
	}

	end(errors.New("the session ended"))
	if _, err := calls.Call(t.Context(), "late", build); err == nil || err.Error() != "the session ended" {
		t.Errorf("a call after the end: %v", err)
	}
}

// eof is a link's reading side that has ended.
type eof struct{}

func (eof) Read([]byte) (int, error) { return 0, io.EOF }
