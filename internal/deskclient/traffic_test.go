package deskclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// TestBridgedTraffic: what a bridge's session saw pass with its server
// reaches the running core's traffic in order, in batches, as the
// session's server and host as the core lists them, whatever the entries
// claim; a session the core does not list adds nothing.
func TestBridgedTraffic(t *testing.T) {
	c, path, log := serveCore(t, func(*core.Options) {})
	defer c.Close()

	d := New(path, func(context.Context) error { return errors.New("no bus") }, nil, log, func(string) {})
	d.Attach(t.Context(), endpoint.Bridged{ID: "s1", Server: "everything", Host: endpoint.Peer{Name: "claude-code", Title: "Claude Code"}, Since: time.Now()})
	for deadline := time.Now().Add(10 * time.Second); len(c.Bridged()) == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the session was never listed")
		}
	}
	unlisted, stop := d.Traffic("s2")
	unlisted(traffic.Entry{Method: "unlisted", Kind: traffic.Request, Dir: traffic.ToServer}, link.Message{})
	stop() // sent before s1's, on the same connection
	note, stop := d.Traffic("s1")
	const n = trafficBatch + 44 // a full batch, then one sent when due
	for i := range n {
		note(traffic.Entry{Server: "not this", Session: "nor this", Method: untrusted.Text(fmt.Sprintf("m%d", i)), Kind: traffic.Request, Dir: traffic.ToServer}, link.Message{})
	}

	script, err := endpoint.Dial(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer script.Close()
	var got []traffic.Entry
	for len(got) < n {
		more, err := script.Traffic(t.Context(), endpoint.TrafficQuery{After: uint64(len(got)), Wait: true})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, more...)
	}
	stop()
	for i, e := range got {
		if string(e.Method) != fmt.Sprintf("m%d", i) || e.Session != "s1" || e.Server != "everything" || e.Host != "Claude Code" {
			t.Fatalf("entry %d: %+v", i, e)
		}
	}
}

// TestBridgedCapture: while the core keeps a session's message bodies
// (that session's, its server's or every server's), the bridge sends
// its messages with their facts, and the core's capture keeps them
// redacted, as the session's; a session the core does not keep sends
// none; told capture is off, the bridge stops sending them.
func TestBridgedCapture(t *testing.T) {
	capturePath := filepath.Join(t.TempDir(), "state", "traffic.jsonl")
	c, path, log := serveCore(t, func(o *core.Options) {
		o.Traffic, o.CapturePath = core.TrafficPrefs{Capture: traffic.Scope{Sessions: []string{"s1"}}}, capturePath
	})

	d := New(path, func(context.Context) error { return errors.New("no bus") }, nil, log, func(string) {})
	d.Attach(t.Context(), endpoint.Bridged{ID: "s1", Server: "everything", Host: endpoint.Peer{Name: "codex"}, Since: time.Now()})
	other := New(path, func(context.Context) error { return errors.New("no bus") }, nil, log, func(string) {})
	other.Attach(t.Context(), endpoint.Bridged{ID: "s2", Server: "everything", Host: endpoint.Peer{Name: "gemini"}, Since: time.Now()})
	until(t, "the bridge is told the core captures", d.capturing)
	if err := c.SetTrafficPrefs(core.TrafficPrefs{Capture: traffic.Scope{Servers: []string{"everything"}}}); err != nil {
		t.Fatal(err)
	}
	until(t, "the other session is told the core captures its server", other.capturing)
	if err := c.SetTrafficPrefs(core.TrafficPrefs{Capture: traffic.Scope{Sessions: []string{"s1"}}}); err != nil {
		t.Fatal(err)
	}
	until(t, "the other session is told the core no longer captures it", func() bool { return !other.capturing() })
	if !d.capturing() {
		t.Error("the session kept was told it is not")
	}
	note, stop := d.Traffic("s1")
	bodies := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login","arguments":{"password":"hunter2hunter2"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`,
	}
	note(traffic.Entry{Kind: traffic.Request, Dir: traffic.ToServer, Method: "tools/call", ID: "1"}, link.Message{Raw: []byte(bodies[0])})
	note(traffic.Entry{Kind: traffic.Result, Dir: traffic.FromServer, Method: "tools/call", ID: "1"}, link.Message{Raw: []byte(bodies[1])})
	stop()
	script, err := endpoint.Dial(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer script.Close()
	for got := 0; got < 2; {
		more, err := script.Traffic(t.Context(), endpoint.TrafficQuery{After: uint64(got), Wait: true})
		if err != nil {
			t.Fatal(err)
		}
		got += len(more)
	}
	if err := c.SetTrafficPrefs(core.TrafficPrefs{}); err != nil {
		t.Fatal(err)
	}
	until(t, "the bridge is told the core stopped capturing", func() bool { return !d.capturing() })
	c.Close() // writes what the capture holds

	lines, err := traffic.ReadCapture(capturePath, 0, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || lines[0].Session != "s1" || lines[0].Server != "everything" ||
		!strings.Contains(string(lines[0].Body), `"password":"[redacted]"`) || string(lines[1].Body) != bodies[1] {
		t.Errorf("captured %+v", lines)
	}
}

// until waits for cond, which an event elsewhere makes true.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10 s", what)
		}
	}
}

// serveCore starts a core with no server, its options edited, serving
// its endpoint in a private folder, and returns it, the endpoint's path
// and its log.
func serveCore(t *testing.T, edit func(*core.Options)) (*core.Core, string, *slog.Logger) {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "servers.json")
	if err := os.WriteFile(cfg, []byte(`{"mcpServers":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	opts := core.Options{ConfigPath: cfg, HistoryPath: filepath.Join(dir, "history.db"), Log: log,
		History: core.HistoryLimits{Retention: history.DefaultRetention, MaxBytes: history.DefaultMaxBytes}}
	edit(&opts)
	c := core.New(t.Context(), opts)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run") // private, as an endpoint's folder must be
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(run, "elicitdesk.sock")
	ep, err := endpoint.Listen(t.Context(), path, c.Endpoint(), log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ep.Close() })
	return c, path, log
}
