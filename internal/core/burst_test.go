package core

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/servers"
)

// burstEnv makes the test binary, re-run as a child, a stdio server that
// sends its client a burst of this many elicitations, "1" to n, as soon
// as it is initialized, each written whole before the next.
const burstEnv = "ELICITDESK_TEST_BURST_SERVER"

// serveBurst is the burst server's whole life when the test binary runs as
// one; otherwise it returns at once. TestMain calls it first.
func serveBurst() {
	var n int
	if _, err := fmt.Sscan(os.Getenv(burstEnv), &n); err != nil {
		return
	}
	out := bufio.NewWriter(os.Stdout)
	send := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(append(b, '\n'))
		out.Flush()
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	for in.Scan() {
		m := gjson.ParseBytes(in.Bytes())
		id := json.RawMessage(m.Get("id").Raw)
		switch method := m.Get("method").String(); {
		case method == "initialize":
			send(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{
				"protocolVersion": m.Get("params.protocolVersion").String(), "capabilities": map[string]any{},
				"serverInfo": map[string]any{"name": "burst", "version": "1"},
			}})
		case method == "notifications/initialized":
			for i := 1; i <= n; i++ {
				send(map[string]any{"jsonrpc": "2.0", "id": fmt.Sprint("ask-", i), "method": "elicitation/create", "params": map[string]any{
					"message": fmt.Sprint(i), "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{}},
				}})
			}
		case method != "" && len(id) > 0:
			send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32601, "message": "method not found"}})
		}
	}
	os.Exit(0)
}

// TestBurstFromOneServerInOrder: a server's burst of elicitations waits
// and opens in the order the server sent it, not in the order the
// goroutines that read it happen to run: the first three open (the
// windows' limit), and the first five wait (the server's limit).
func TestBurstFromOneServerInOrder(t *testing.T) {
	const burst = 8
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := startWith(t, func(o *Options) {
		o.StartUI = nil
		cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"burst": map[string]any{
			"command": exe, "args": []string{"-test.run=^$"}, "env": map[string]string{burstEnv: fmt.Sprint(burst)},
		}}})
		if err := os.WriteFile(o.ConfigPath, cfg, 0o600); err != nil {
			t.Fatal(err)
		}
	})
	rec := &opens{recorder: newRecorder()}
	go s.c.Attach(t.Context(), rec)
	rec.until(t, "three windows", func() bool { return len(rec.requests) == DefaultMaxWindows })
	eventually(t, "the server's limit of requests waiting", func() bool {
		return len(s.c.pending.all()) == servers.DefaultLimits.Waiting
	})
	var waiting []string
	for _, w := range s.c.pending.all() {
		waiting = append(waiting, w.e.Message.Line())
	}
	if want := []string{"1", "2", "3", "4", "5"}; !slices.Equal(waiting, want) {
		t.Errorf("waiting: %q, want %q", waiting, want)
	}
	if got, want := rec.messages(), []string{"1", "2", "3"}; !slices.Equal(got, want) {
		t.Errorf("opened %q, want %q", got, want)
	}
}
