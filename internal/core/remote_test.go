package core

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/testkit/demotest"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

func TestMain(m *testing.M) {
	demotest.Serve()
	serveBurst()
	os.Exit(m.Run())
}

// TestRemoteToolsAndCalls: the windows' process gets a server's tools and
// a call's outcomes over the endpoint as the core's own connection gives
// them: the same tools, a result read from its JSON, and a -32042 answer
// whose links it can show.
func TestRemoteToolsAndCalls(t *testing.T) {
	s := startDemo(t, "2025-11-25") // which still has -32042
	r, rec, _ := remoteUI(t, serveUI(t, s))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	own, _, err := s.c.Tools(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	got, who, err := r.Tools(ctx, "demo")
	if err != nil || who.Name != "demo" {
		t.Fatalf("tools over the endpoint: %v (%+v)", err, who)
	}
	if len(got) != len(own) || len(got) == 0 {
		t.Fatalf("%d tools over the endpoint, %d in the core", len(got), len(own))
	}
	for i := range got {
		g, o := got[i], own[i]
		if g.Name != o.Name || g.Title != o.Title || g.Description != o.Description ||
			compactJSON(t, g.InputSchema) != compactJSON(t, o.InputSchema) {
			t.Errorf("tool %d over the endpoint:\n%+v\nin the core:\n%+v", i, g, o)
		}
	}

	type outcome struct {
		res *servers.ToolResult
		err error
	}
	called := make(chan outcome, 1)
	r.Focused(true) // the person is in the windows, as they call
	go func() {
		res, _, err := r.CallTool(ctx, "demo", demo.ToolAskConfirm, nil, false)
		called <- outcome{res, err}
	}()
	rec.until(t, "the tool's question", func() bool { return len(rec.requests) == 1 })
	if !rec.requests[0].ByPerson {
		t.Error("the question of a call the person made from the windows does not open as theirs, with the keyboard")
	}
	if err := r.Answer(rec.requests[0].ID, forms.Result{Action: forms.Decline}); err != nil {
		t.Fatal(err)
	}
	out := <-called
	if out.err != nil || out.res.IsError || len(out.res.Content) == 0 || !strings.Contains(out.res.Content[0].Text, "decline") {
		t.Fatalf("result %+v, %v; want the declined answer in text", out.res, out.err)
	}

	_, _, err = r.CallTool(ctx, "demo", demo.ToolNeedsLink, nil, false)
	ue, ok := servers.AsURLRequired(err)
	if !ok {
		t.Fatalf("needs_link over the endpoint: %v, want a -32042 error", err)
	}
	links, bad := ue.Links()
	if len(links) != 1 || len(bad) != 0 || !strings.HasPrefix(string(links[0].URL), "https://") {
		t.Errorf("links %+v, bad %v: want the demo's one link", links, bad)
	}
}

// startDemo starts a core whose one server is the demo, called "demo",
// speaking revision version ("" for the latest), and waits until it is
// ready.
func startDemo(t *testing.T, version string, edits ...func(*Options)) *started {
	t.Helper()
	entry := demotest.Server(t, "demo")
	s := startWith(t, func(o *Options) {
		for _, edit := range edits {
			edit(o)
		}
		cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"demo": map[string]any{
			"command": entry.Command, "args": entry.Args, "env": entry.Env, "protocolVersion": version,
		}}})
		if err := os.WriteFile(o.ConfigPath, cfg, 0o600); err != nil {
			t.Fatal(err)
		}
	})
	eventually(t, "the demo server", func() bool {
		st := s.c.Statuses()
		return len(st) == 1 && st[0].State == servers.StateReady
	})
	return s
}

// compactJSON is raw without insignificant white space.
func compactJSON(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	if len(raw) > 0 {
		if err := json.Compact(&b, raw); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// TestPersonsCallAsks: the first question of a tool call the person made
// from the windows opens as theirs, with the keyboard, while a window of
// the app has it; not the call's second question, nor one asked once the
// person has gone to another application, nor one asked during a script's
// call: a server cannot stall, then take the keyboard.
func TestPersonsCallAsks(t *testing.T) {
	s := startDemo(t, "2025-11-25")
	rec := newRecorder()
	go s.c.Attach(t.Context(), rec)
	attached(t, s)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	call := func(tool string, script bool) <-chan error {
		done := make(chan error, 1)
		go func() { _, _, err := s.c.CallTool(ctx, "demo", tool, nil, script); done <- err }()
		return done
	}
	next := func(n int) Request {
		t.Helper()
		rec.until(t, "the question", func() bool { return len(rec.requests) == n })
		return rec.requests[n-1]
	}
	answer := func(q Request, content string) {
		t.Helper()
		if err := s.c.Answer(q.ID, forms.Result{Action: forms.Accept, Content: json.RawMessage(content)}); err != nil {
			t.Fatal(err)
		}
	}

	s.c.Focused(true)
	done := call(demo.ToolAskTwice, false)
	if q := next(1); !q.ByPerson {
		t.Error("the first question of the person's call opens as any other")
	} else {
		answer(q, `{"name":"Ada"}`)
	}
	if q := next(2); q.ByPerson {
		t.Error("the call's second question opens as the person's too")
	} else {
		answer(q, `{"drink":"coffee"}`)
	}
	<-done

	s.c.Focused(false) // the person went to another application
	done = call(demo.ToolAskConfirm, false)
	q := next(3)
	if q.ByPerson {
		t.Error("a question asked while no window has the keyboard takes it")
	}
	s.c.Answer(q.ID, forms.Result{Action: forms.Decline})
	<-done

	s.c.Focused(true)
	done = call(demo.ToolAskConfirm, true)
	q = next(4)
	if q.ByPerson {
		t.Error("a script's question opens as the person's")
	}
	s.c.Answer(q.ID, forms.Result{Action: forms.Decline})
	<-done
}

// TestRestartFromTheWindows: Restart in the windows' process reaches the
// core over the private connection and starts the server anew; an
// unknown server is refused.
func TestRestartFromTheWindows(t *testing.T) {
	s := startDemo(t, "")
	r, _, _ := remoteUI(t, serveUI(t, s))
	attached(t, s)
	before, _ := s.c.manager.Conn("demo")
	if r.Restart("nosuch") {
		t.Error("an unknown server restarted")
	}
	if !r.Restart("demo") {
		t.Fatal("the demo server did not restart")
	}
	<-before.Lost()
	eventually(t, "the demo server anew", func() bool {
		c, ok := s.c.manager.Conn("demo")
		return ok && c != before
	})
}
