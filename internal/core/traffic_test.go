package core

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

// TestTrafficOfAConfiguredServer: a script's tool call through the
// endpoint, the server's question and the person's answer appear in the
// traffic `elicitdesk traffic` reads, both ways over the demo server's
// stdio, each answer with its request's method and latency.
func TestTrafficOfAConfiguredServer(t *testing.T) {
	s := startDemo(t, "")
	_, rec, _ := remoteUI(t, serveUI(t, s))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	script, err := endpoint.Dial(ctx, s.path)
	if err != nil {
		t.Fatal(err)
	}
	defer script.Close()
	askConfirmDeclined(t, s, rec, func(ctx context.Context) error {
		_, err := script.CallTool(ctx, endpoint.ToolCall{Server: "demo", Tool: demo.ToolAskConfirm})
		return err
	})

	list, err := script.Traffic(ctx, endpoint.TrafficQuery{})
	if err != nil {
		t.Fatal(err)
	}
	find := func(words ...string) traffic.Entry {
		t.Helper()
		f, err := traffic.ParseFilter(words)
		if err != nil {
			t.Fatal(err)
		}
		var found []traffic.Entry
		for _, e := range list {
			if f.Match(e) {
				found = append(found, e)
			}
		}
		if len(found) != 1 {
			t.Fatalf("%q found %d entries in %+v", words, len(found), list)
		}
		return found[0]
	}
	call := find("dir:out", "kind:request", "tool:"+demo.ToolAskConfirm)
	asked := find("dir:in", "kind:request", "method:elicitation/create")
	answered := find("dir:out", "status:ok", "method:elicitation/create")
	result := find("dir:in", "status:ok", "tool:"+demo.ToolAskConfirm)
	if !(call.Seq < asked.Seq && asked.Seq < answered.Seq && answered.Seq < result.Seq) {
		t.Errorf("out of order: %d %d %d %d", call.Seq, asked.Seq, answered.Seq, result.Seq)
	}
	if answered.ID != asked.ID || answered.Latency <= 0 || result.Latency < answered.Latency || result.Method != "tools/call" {
		t.Errorf("answers without their requests: %+v, %+v", answered, result)
	}
	if call.Server != "demo" || call.Size == 0 {
		t.Errorf("the call's entry: %+v", call)
	}
}

// TestCaptureOfAConfiguredServer: switched on from the windows, the
// capture keeps each message of a tool call and its question, numbered
// as the traffic lists them, with the person's pattern and the rules'
// secrets redacted; a pattern that does not compile is refused and
// changes nothing.
func TestCaptureOfAConfiguredServer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "traffic.jsonl")
	s := startDemo(t, "", func(o *Options) { o.CapturePath = path })
	remote, rec, _ := remoteUI(t, serveUI(t, s))
	if err := remote.SetTrafficPrefs(TrafficPrefs{Capture: traffic.Scope{All: true}, Redact: []string{"("}}); err == nil || s.c.capture != nil {
		t.Fatalf("a bad pattern: %v, capture %v", err, s.c.capture)
	}
	if err := remote.SetTrafficPrefs(TrafficPrefs{Capture: traffic.Scope{All: true}, Redact: []string{"ACME-[0-9]+"}}); err != nil {
		t.Fatal(err)
	}
	askConfirmDeclined(t, s, rec, s.callConfirm("demo", map[string]any{"note": "for ACME-4471", "apiKey": "k-99aa88bb77"}))
	lines, err := traffic.ReadCapture(path, 0, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	// Another server's messages only: the demo's are no longer kept.
	if err := remote.SetTrafficPrefs(TrafficPrefs{Capture: traffic.Scope{Servers: []string{"notes"}}}); err != nil {
		t.Fatal(err)
	}
	askConfirmDeclined(t, s, rec, s.callConfirm("demo", map[string]any{"note": "unkept"}))
	if again, _ := traffic.ReadCapture(path, 0, time.Now()); len(again) != len(lines) {
		t.Errorf("kept %d lines more of a server not named", len(again)-len(lines))
	}
	list, _ := s.c.traffic.After(0)
	byseq := map[uint64]traffic.Entry{}
	for _, e := range list {
		byseq[e.Seq] = e
	}
	var methods []string
	for _, l := range lines {
		listed := byseq[l.Seq]
		if listed.Time.Equal(l.Time) {
			listed.Time = l.Time // the file keeps no monotonic reading
		}
		if listed != l.Entry {
			t.Errorf("line %+v, listed %+v", l.Entry, listed)
		}
		methods = append(methods, string(l.Method))
		for _, secret := range []string{"ACME-4471", "k-99aa88bb77"} {
			if strings.Contains(string(l.Body), secret) {
				t.Errorf("%q reached the capture: %s", secret, l.Body)
			}
		}
	}
	if want := []string{"tools/call", "elicitation/create", "elicitation/create", "tools/call"}; !slices.Equal(methods[len(methods)-4:], want) {
		t.Errorf("captured %q, want it to end %q", methods, want)
	}
}

// TestCaptureOverHTTP: a server over Streamable HTTP is recorded and
// captured as one over stdio: the tool call, the question that came in
// its event stream, the person's answer in a POST of the core's own, and
// the result, each with its message; what the server sent, with the
// HTTP status and headers it came with, a cookie redacted.
func TestCaptureOverHTTP(t *testing.T) {
	mcp := server.NewStreamableHTTPServer(demo.NewServer())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Set-Cookie", "sid=cookie-5ecret-77; HttpOnly")
		w.Header().Set("X-Trace", "t-1")
		mcp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	path := filepath.Join(t.TempDir(), "state", "traffic.jsonl")
	s := startWith(t, func(o *Options) {
		o.CapturePath, o.Traffic = path, TrafficPrefs{Capture: traffic.Scope{All: true}}
		cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"web": map[string]any{"url": srv.URL, "protocolVersion": "2025-11-25"}}})
		if err := os.WriteFile(o.ConfigPath, cfg, 0o600); err != nil {
			t.Fatal(err)
		}
	})
	eventually(t, "the web server", func() bool {
		st := s.c.Statuses()
		return len(st) == 1 && st[0].State == servers.StateReady
	})
	_, rec, _ := remoteUI(t, serveUI(t, s))
	askConfirmDeclined(t, s, rec, s.callConfirm("web", nil))
	lines, err := traffic.ReadCapture(path, 0, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range lines {
		if l.Server == "web" && (l.Method == "tools/call" || l.Method == "elicitation/create") {
			got = append(got, string(l.Dir)+" "+string(l.Kind)+" "+string(l.Method))
			if !json.Valid(l.Body) || !strings.Contains(string(l.Body), `"jsonrpc"`) {
				t.Errorf("line %d's body: %s", l.Seq, l.Body)
			}
			if in := l.Dir == traffic.FromServer; in && (l.Status != http.StatusOK || l.Header.Get("X-Trace") != "t-1" ||
				l.Header.Get("Set-Cookie") != traffic.Redacted || l.Header.Get("Content-Type") == "") ||
				!in && (l.Status != 0 || l.Header != nil) {
				t.Errorf("line %d (%s %s): HTTP %d, headers %v", l.Seq, l.Dir, l.Kind, l.Status, l.Header)
			}
		}
	}
	if file, _ := os.ReadFile(path); bytes.Contains(file, []byte("5ecret")) {
		t.Error("the cookie reached the capture")
	}
	want := []string{"out request tools/call", "in request elicitation/create", "out result elicitation/create", "in result tools/call"}
	if !slices.Equal(got, want) {
		t.Errorf("captured %q, want %q", got, want)
	}
}

// askConfirmDeclined has call call the demo's ask_confirm, declines its
// question as the person would, then has the capture, if any, write what
// it holds.
func askConfirmDeclined(t *testing.T, s *started, rec *recorder, call func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var before int
	rec.until(t, "the questions before", func() bool { before = len(rec.requests); return true })
	called := make(chan error, 1)
	go func() { called <- call(ctx) }()
	rec.until(t, "the tool's question", func() bool { return len(rec.requests) == before+1 })
	if err := s.c.Answer(rec.requests[before].ID, forms.Result{Action: forms.Decline}); err != nil {
		t.Fatal(err)
	}
	if err := <-called; err != nil {
		t.Fatal(err)
	}
	if s.c.capture != nil {
		if err := s.c.capture.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// callConfirm calls the demo's ask_confirm on server with args, as the
// app's own windows do.
func (s *started) callConfirm(server string, args map[string]any) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		_, _, err := s.c.CallTool(ctx, server, demo.ToolAskConfirm, args, false)
		return err
	}
}
