package core

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers"
)

func TestBridgedIdentity(t *testing.T) {
	b := endpoint.Bridged{ID: "s", Server: "files", Target: "npx files",
		Reported: endpoint.Peer{Name: "files-mcp", Version: "1"},
		Host:     endpoint.Peer{Name: "claude-ai", Title: "Claude Desktop", Version: "0.9"}, Since: time.Now()}
	want := servers.Identity{Name: "files", Target: "npx files",
		Reported: servers.ServerInfo{Name: "files-mcp", Version: "1"},
		Host:     servers.HostInfo{Name: "claude-ai", Title: "Claude Desktop", Version: "0.9"}}
	if got := BridgedIdentity(b); got != want {
		t.Errorf("BridgedIdentity = %+v, want %+v", got, want)
	}
}

// TestCompletionFromItsSession: a bridged URL request's completion counts
// only from its own session: not from another session, nor as a
// configured server's of the same name.
func TestCompletionFromItsSession(t *testing.T) {
	s := start(t)
	c, err := endpoint.Dial(t.Context(), s.path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	url := json.RawMessage(`{"mode":"url","message":"Sign in","url":"https://example.com/x","elicitationId":"e1"}`)
	go c.Elicit(t.Context(), endpoint.Question{Session: endpoint.Bridged{ID: "s1", Server: "files"}, Params: url})
	eventually(t, "the request", func() bool { return len(s.c.pending.all()) == 1 })
	completed := s.c.pending.all()[0].e.Completed()
	if s.c.router.Complete(servers.Identity{Name: "files"}, "e1") {
		t.Error("a configured server of the same name completed a bridged session's request")
	}
	if err := c.Complete(t.Context(), endpoint.Completion{Session: "s2", Server: "files", ElicitationID: "e1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Servers(t.Context(), endpoint.ServersQuery{}); err != nil { // read after the completion, which is handled in order
		t.Fatal(err)
	}
	select {
	case <-completed:
		t.Fatal("another session completed the request")
	default:
	}
	if err := c.Complete(t.Context(), endpoint.Completion{Session: "s1", Server: "files", ElicitationID: "e1"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-completed:
	case <-time.After(20 * time.Second):
		t.Fatal("its own session's completion did not complete it")
	}
	// A server name too long to keep whole is cut alike in both.
	long := strings.Repeat("files", untrusted.NameBytes)
	go c.Elicit(t.Context(), endpoint.Question{Session: endpoint.Bridged{ID: "s3", Server: long}, Params: url})
	eventually(t, "the long-named session's request", func() bool { return len(s.c.pending.all()) == 2 })
	completed = s.c.pending.all()[1].e.Completed()
	if err := c.Complete(t.Context(), endpoint.Completion{Session: "s3", Server: long, ElicitationID: "e1"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-completed:
	case <-time.After(20 * time.Second):
		t.Fatal("a long-named session's completion did not complete its request")
	}
}

// TestLinkGoneAfterAccept: the person accepted a bridged URL request, and
// the bridge went away before its server said the step was complete: the
// windows hear the step is over because the server is gone, and do not
// wait for it.
func TestLinkGoneAfterAccept(t *testing.T) {
	s := start(t)
	c, err := endpoint.Dial(t.Context(), s.path)
	if err != nil {
		t.Fatal(err)
	}
	url := json.RawMessage(`{"mode":"url","message":"Sign in","url":"https://example.com/x","elicitationId":"e1"}`)
	answered := make(chan error, 1)
	go func() {
		_, err := c.Elicit(t.Context(), endpoint.Question{Session: endpoint.Bridged{ID: "s1", Server: "files"}, Params: url})
		answered <- err
	}()
	r, rec, _ := remoteUI(t, <-s.starts)
	rec.until(t, "the request", func() bool { return len(rec.requests) == 1 })
	id := rec.requests[0].ID
	if err := r.Answer(id, forms.Result{Action: forms.Accept}); err != nil {
		t.Fatal(err)
	}
	if err := <-answered; err != nil {
		t.Fatal(err)
	}
	c.Close()
	rec.until(t, "the step over, the server gone", func() bool { return slices.Contains(rec.done, id+" gone") })
}

// TestServersOfItsOwnFile: `elicitdesk servers` is told the connections'
// states only of the servers.json the core reads, by any spelling of its
// path; of another file it is refused, with the core's file named.
func TestServersOfItsOwnFile(t *testing.T) {
	s := start(t)
	c, err := endpoint.Dial(t.Context(), s.path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	own := s.c.opts.ConfigPath
	link := filepath.Join(t.TempDir(), "linked.json")
	if err := os.Symlink(own, link); err != nil {
		t.Fatal(err)
	}
	for _, asked := range []string{"", own, filepath.Join(filepath.Dir(own), ".", filepath.Base(own)), link} {
		if _, err := c.Servers(t.Context(), endpoint.ServersQuery{Config: asked}); err != nil {
			t.Errorf("Servers(%q): %v, want the states of its own file", asked, err)
		}
	}
	other := filepath.Join(t.TempDir(), "servers.json")
	var refused *endpoint.OtherConfigError
	if _, err := c.Servers(t.Context(), endpoint.ServersQuery{Config: other}); !errors.As(err, &refused) || refused.Reads != own {
		t.Errorf("Servers(%q): %v, want a refusal naming %s", other, err, own)
	}
}

// TestBridgedCancelSaysWhy: a bridge that cancels its question with a
// reason (its server cancelled, or closed the connection) has the window
// say so; one that goes away without a word is the host or the bridge
// gone.
func TestBridgedCancelSaysWhy(t *testing.T) {
	s := start(t)
	_, rec, _ := remoteUI(t, serveUI(t, s))
	c, err := endpoint.Dial(t.Context(), s.path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	form := json.RawMessage(`{"message":"Book it?","requestedSchema":{"type":"object","properties":{}}}`)
	for i, tt := range []struct{ cause, want string }{
		{"the server cancelled the request: McpError: Request timed out", "the other side cancelled the request: McpError: Request timed out"},
		{"the server cancelled the request", "the other side cancelled the request"},
		{"the server closed the connection", "its bridge said “the server closed the connection”"},
	} {
		ctx, cancel := context.WithCancelCause(t.Context())
		done := make(chan struct{})
		go func() {
			defer close(done)
			c.Elicit(ctx, endpoint.Question{Session: endpoint.Bridged{ID: "s", Server: "booking"}, Params: form})
		}()
		rec.until(t, "the question", func() bool { return len(rec.requests) == i+1 })
		cancel(errors.New(tt.cause))
		<-done
		rec.until(t, "its end", func() bool { return len(rec.causes) == i+1 })
		if got := rec.causes[i]; got != tt.want {
			t.Errorf("cancelled with %q: the window says %q, want %q", tt.cause, got, tt.want)
		}
	}
}
