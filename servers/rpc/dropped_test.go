package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
)

// TestJunkDoesNotFloodTheLog: 2,000 lines of junk on a server's stdout
// are logged five times, the count and the line in each, and the peer reads on;
// at the link's end the log gives the count in all.
func TestJunkDoesNotFloodTheLog(t *testing.T) {
	var log bytes.Buffer // written by the peer's reader, read once its answer to the ping is in
	ping := func(context.Context, json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`"pong"`), nil }
	p, o := start(t, Options{Methods: map[string]Handler{"ping": ping}, Log: slog.New(slog.NewTextHandler(&log, nil))})
	for range 2000 {
		o.send("Listening on stdio, build 1.2.3")
	}
	o.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if got := o.next(); got.Get("result").String() != "pong" {
		t.Fatalf("after the junk: %s", got.Raw)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 5 || !strings.Contains(lines[4], "dropped=5") || !strings.Contains(lines[0], `line="Listening on stdio, build 1.2.3"`) {
		t.Errorf("logged %d lines, want the first five with their count:\n%s", len(lines), log.String())
	}
	o.w.Close()
	<-p.Done()
	if last := strings.TrimSpace(log.String()); !strings.HasSuffix(last, "dropped=2000") {
		t.Errorf("at the link's end, the log says\n%s\nwant the count in all, 2000", last)
	}
}
