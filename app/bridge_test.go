package app

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
)

// bridgedWho is a server a host reaches through the bridge.
var bridgedWho = servers.Identity{
	Name: "files", Target: "npx files-mcp",
	Reported: servers.ServerInfo{Name: "files-mcp", Version: "1.2"},
	Host:     servers.HostInfo{Name: "claude-ai", Title: "Claude Desktop", Version: "0.9"},
}

// elicit asks as the bridge would, and returns the answer later.
func (h *harness) elicit(ctx context.Context, session, raw string) <-chan answerJSON {
	out := make(chan answerJSON, 1)
	go func() {
		res, err := h.core.Elicit(ctx, session, bridgedWho, json.RawMessage(raw))
		out <- answerJSON{res, err}
	}()
	return out
}

type answerJSON struct {
	res json.RawMessage
	err error
}

const bridgedForm = `{"message":"Pick a folder","requestedSchema":{"type":"object","properties":{"dir":{"type":"string"}}}}`

// TestBridgedRequests checks what the app does with a bridged server's
// elicitations: the window names the server, then the host; the answer
// goes back as the ElicitResult's JSON; the session counts its requests;
// the bridge giving up makes the window stale at once; an unusable one is
// refused with the error to send and recorded with the host.
func TestBridgedRequests(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sessionDone := make(chan error, 1)
	go func() {
		sessionDone <- h.core.Bridge(ctx, servers.Bridged{ID: "s1", Server: bridgedWho, Since: time.Now()})
	}()
	h.eventually("the session listed", func() bool { return len(h.core.Bridged()) == 1 })

	got := h.elicit(context.Background(), "s1", bridgedForm)
	r := h.request(0)
	h.ui(func() {
		markup := test.RenderObjectToMarkup(content(r))
		name, host, target := strings.Index(markup, "files"), strings.Index(markup, "for Claude Desktop"), strings.Index(markup, "npx files-mcp")
		if name < 0 || host < 0 || target < 0 || !(name < host && host < target) {
			t.Errorf("header: server at %d, host at %d, target at %d; want server, host, target", name, host, target)
		}
		test.Tap(button(t, content(r), "Decline"))
	})
	if a := <-got; a.err != nil || string(a.res) != `{"action":"decline"}` {
		t.Errorf("answer %s, %v", a.res, a.err)
	}
	if l := h.core.Bridged(); len(l) != 1 || l[0].Asked != 1 {
		t.Errorf("sessions %+v, want s1 with 1 request", l)
	}
	h.windowsClosed() // once the core took the answer: the next request's window is the first

	askCtx, giveUp := context.WithCancel(context.Background())
	stale := h.elicit(askCtx, "s1", bridgedForm)
	r = h.request(0)
	giveUp()
	h.eventually("the stale banner", func() bool { return r.ended && shows(r, "The host stopped waiting for it") })
	if a := <-stale; a.err == nil {
		t.Errorf("a request the bridge gave up was answered: %s", a.res)
	}

	refused := <-h.elicit(context.Background(), "s1", `{"requestedSchema":{"type":"object","properties":{}}}`)
	var rpc *jsonrpc.Error
	if !errors.As(refused.err, &rpc) || rpc.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("unusable params: %s, %v; want -32602", refused.res, refused.err)
	}
	es := h.entries()
	if len(es) != 3 {
		t.Fatalf("history %+v", es)
	}
	for _, e := range es {
		if e.Server != bridgedWho {
			t.Errorf("entry %d by %+v, want %+v", e.ID, e.Server, bridgedWho)
		}
	}
	if es[0].Outcome != history.Error {
		t.Errorf("newest entry %s, want the refusal", es[0].Outcome)
	}

	cancel()
	if err := <-sessionDone; err != nil {
		t.Error(err)
	}
	h.eventually("the session gone", func() bool { return len(h.core.Bridged()) == 0 })
}

// TestBridgedUnshown: an elicitation the bridge could not show, handed to
// the running app, is in the app's history as the bridge had it; once the
// app quits, it takes no more, so the bridge keeps them itself.
func TestBridgedUnshown(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	at := time.Date(2026, 11, 23, 10, 42, 0, 0, time.UTC)
	e := history.Entry{Server: bridgedWho, Message: "Pick a folder", Mode: servers.ModeForm, Outcome: history.NoWindow,
		Reason: "answered cancel without asking: no window can be shown", Received: at, Answered: at}
	if err := h.core.Unshown(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	es := h.entries()
	if len(es) != 1 || es[0].Server != bridgedWho || es[0].Outcome != history.NoWindow || es[0].Reason != e.Reason || !es[0].Received.Equal(at) {
		t.Fatalf("history %+v, want the unshown entry", es)
	}
	h.core.Close()
	if err := h.core.Unshown(context.Background(), e); err == nil {
		t.Error("a closed core took an entry")
	}
}
