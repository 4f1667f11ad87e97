//go:build !windows

package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
)

// TestForwardedMachine: a machine the person set up with elicitdesk
// remote is served from the core's start, at a socket of its own. Its
// bridge asks, and the request shows the machine, which the forward says,
// not the bridge; the machine's requests are limited together, however
// many servers it names; it may do nothing but ask; and blocked, it is
// answered no more.
func TestForwardedMachine(t *testing.T) {
	runtime := t.TempDir()
	os.Chmod(runtime, 0o700)
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	s := startWith(t, func(o *Options) {
		o.StartUI = nil
		if err := AddMachine(MachinesPath(o.ConfigPath), "devbox"); err != nil {
			t.Fatal(err)
		}
	})
	rec := newRecorder()
	go s.c.Attach(t.Context(), rec)
	attached(t, s)
	path, err := endpoint.ForwardedPath("devbox")
	if err != nil {
		t.Fatal(err)
	}
	c, err := endpoint.Dial(t.Context(), path)
	if err != nil {
		t.Fatalf("the machine listed is not served: %v", err)
	}
	defer c.Close()

	question := func(server string) endpoint.Question {
		return endpoint.Question{
			Session: endpoint.Bridged{ID: "s-" + server, Server: server, Host: endpoint.Peer{Name: "claude-code"}},
			Params:  json.RawMessage(`{"message":"Deploy?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}`),
		}
	}
	answered := make(chan error, 1)
	go func() {
		_, err := c.Elicit(t.Context(), question("everything"))
		answered <- err
	}()
	rec.until(t, "the machine's request", func() bool { return len(rec.requests) == 1 })
	if who := rec.requests[0].Server; who.Machine != "devbox" || who.Name != "everything" || who.Host.Name != "claude-code" {
		t.Errorf("the request is from %+v, want everything for claude-code on devbox", who)
	}

	// The first waits; four more of other names fill the machine's
	// waiting; the next is refused, whatever it calls its server.
	for i := range servers.DefaultLimits.Waiting - 1 {
		go c.Elicit(t.Context(), question(fmt.Sprint("server", i)))
	}
	eventually(t, "the machine's requests waiting", func() bool { return len(s.c.pending.all()) == servers.DefaultLimits.Waiting })
	var e *jsonrpc.Error
	if _, err := c.Elicit(t.Context(), question("yet-another")); !errors.As(err, &e) || e.Code != jsonrpc.CodeServer {
		t.Errorf("a request past the machine's limit: %v, want it refused", err)
	}
	if err := s.c.Answer(rec.requests[0].ID, forms.Result{Action: forms.Decline}); err != nil {
		t.Fatal(err)
	}
	if err := <-answered; err != nil {
		t.Errorf("the machine's bridge got %v, want the answer", err)
	}

	// Its sessions are kept apart from this machine's, whatever ids its
	// bridges choose.
	go c.Bridge(t.Context(), endpoint.Bridged{ID: "s1", Server: "everything", Host: endpoint.Peer{Name: "claude-code"}})
	eventually(t, "the machine's session listed", func() bool {
		list := s.c.Bridged()
		return len(list) == 1 && list[0].ID == "devbox--s1" && list[0].Server.Machine == "devbox"
	})

	if _, err := c.CallTool(context.Background(), endpoint.ToolCall{Server: "demo", Tool: "ask_confirm"}); !errors.As(err, &e) || e.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("a tool call from the machine: %v, want it refused", err)
	}
	if err := s.c.Forward("devbox"); err != nil {
		t.Errorf("serving a machine served already: %v", err)
	}

	// Blocked from the Servers window: its requests end, nothing answers
	// there any more, and no start serves it again.
	if err := s.c.Block("devbox"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the blocked machine's requests ended", func() bool { return len(s.c.pending.all()) == 0 })
	// History is written after the request ends, and the windows told.
	rec.until(t, "a stale request in History saying its machine's connection ended", func() bool {
		es, err := s.c.history.Search(context.Background(), history.Query{Outcome: history.Stale, Limit: 1})
		return err == nil && len(es) == 1 && strings.HasPrefix(es[0].Reason, "The connection from devbox ended")
	})
	if c, err := endpoint.Dial(t.Context(), path); err == nil {
		c.Close()
		t.Error("a blocked machine is still answered")
	}
	if list, err := Machines(MachinesPath(s.c.opts.ConfigPath)); err != nil || len(list) != 0 {
		t.Errorf("still listed: %q, %v", list, err)
	}
}
