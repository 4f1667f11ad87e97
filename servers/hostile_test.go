package servers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// elicitLine is an elicitation/create request with the given id and message.
func elicitLine(id, message string) string {
	msg, _ := json.Marshal(message)
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"elicitation/create","params":{"message":` + string(msg) + `,"requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}`
}

// TestHostileServer sends what a broken or hostile server might. The
// connection must answer what deserves an answer, refuse the rest clearly
// and keep working: a valid request afterwards still reaches the person.
func TestHostileServer(t *testing.T) {
	tests := []struct {
		name  string
		send  func(f *fakeServer)
		check func(t *testing.T, f *fakeServer, r *queued)
	}{
		{"garbage", func(f *fakeServer) {
			f.send(`this is not JSON`)
			f.send(`{"jsonrpc":"2.0","id":`)
		}, nil},
		{"response to nothing", func(f *fakeServer) {
			f.send(`{"jsonrpc":"2.0","id":991,"result":{"ok":true}}`)
			f.send(`{"jsonrpc":"2.0","id":992,"error":{"code":-1,"message":"boo"}}`)
		}, nil},
		{"10 MB message", func(f *fakeServer) {
			f.send(elicitLine(`"huge"`, strings.Repeat("x", 10<<20)))
		}, func(t *testing.T, f *fakeServer, r *queued) {
			m := f.serveLegacy("")
			if m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(m.Error.Message, "MB") {
				t.Fatalf("want -32602 saying the size, got %+v", m.Error)
			}
		}},
		{"flood", func(f *fakeServer) {
			for i := range 40 {
				f.send(elicitLine(fmt.Sprint(1000+i), "flood"))
			}
		}, func(t *testing.T, f *fakeServer, r *queued) {
			// Beyond the five allowed to wait, each is refused at once,
			// with an error: a cancel would read as the person's.
			for range 35 {
				if m := f.serveLegacy(""); m.Error == nil || m.Error.Code != jsonrpc.CodeServer || !strings.Contains(m.Error.Message, "rate limited") {
					t.Fatalf("flooded request answered %s %+v", m.Result, m.Error)
				}
			}
			for range 5 {
				next(t, r).Reply(forms.Result{Action: forms.Decline})
				f.serveLegacy("")
			}
		}},
		{"colliding ids", func(f *fakeServer) {
			f.send(elicitLine(`"same"`, "first"))
			f.send(elicitLine(`"same"`, "second"))
			f.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
		}, func(t *testing.T, f *fakeServer, r *queued) {
			// MCP allows an id once in a session, and one answer could not
			// tell the two apart: the one read second is dropped, a copy,
			// so the person's answer to the first is the only one. (The
			// ping's answer says the copy was read, before the first is
			// answered and its id free again.)
			if m := f.serveLegacy(""); string(m.ID) != `"after"` {
				t.Fatalf("the server got %s %s %+v first, want the ping's answer", m.ID, m.Result, m.Error)
			}
			a := next(t, r)
			if a.Message != "first" {
				t.Errorf("asked %q, want the first", a.Message)
			}
			a.Reply(forms.Result{Action: forms.Decline})
			if m := f.serveLegacy(""); string(m.ID) != `"same"` || m.Error != nil || !strings.Contains(string(m.Result), "decline") {
				t.Fatalf("the server got %s %+v first, want the person's answer", m.Result, m.Error)
			}
			select {
			case e := <-r.asked:
				t.Fatalf("the copy was asked too: %q", e.Message)
			default:
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeServer(t)
			c, r := dialFake(t, f)
			sent := make(chan struct{})
			go func() {
				defer close(sent)
				tt.send(f)
			}()
			if tt.check != nil {
				tt.check(t, f, r)
			}
			<-sent
			askAfter(t, f, c, r) // still alive
		})
	}
}

// TestServerExitsMidRequest checks that a request waiting for the person
// goes stale, saying why, when its server goes away; nothing leaks.
func TestServerExitsMidRequest(t *testing.T) {
	baseline := runtime.NumGoroutine()
	func() {
		f := newFakeServer(t)
		c, r := dialFake(t, f)
		f.send(elicitLine("1", "waiting"))
		e := next(t, r)
		f.out.Close() // the server is gone
		select {
		case <-e.Context().Done():
		case <-time.After(10 * time.Second):
			t.Fatal("the request did not go stale")
		}
		if cause := context.Cause(e.Context()); cause.Error() != "The server closed the connection" {
			t.Errorf("cause %v", cause)
		}
		<-c.Lost()
		if !errors.Is(c.Err(), ErrServerClosed) {
			t.Errorf("connection error %v", c.Err())
		}
		c.Close()
	}()
	goroutinesBack(t, baseline)
}
