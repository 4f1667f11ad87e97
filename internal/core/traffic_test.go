package core

import (
	"context"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
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
	called := make(chan error, 1)
	go func() {
		_, err := script.CallTool(ctx, endpoint.ToolCall{Server: "demo", Tool: demo.ToolAskConfirm})
		called <- err
	}()
	rec.until(t, "the tool's question", func() bool { return len(rec.requests) == 1 })
	if err := s.c.Answer(rec.requests[0].ID, forms.Result{Action: forms.Decline}); err != nil {
		t.Fatal(err)
	}
	if err := <-called; err != nil {
		t.Fatal(err)
	}

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
