package servers

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// unreadable are elicitation params no form can be made of, which mcp-go
// cannot decode or we will not keep, and the reason each refusal must give.
var unreadable = []struct {
	name, params, reason string
}{
	{"number beyond float64", `{"message":"m","requestedSchema":{"type":"object","properties":{"x":{"type":"number","default":1e400}}}}`, "number out of range"},
	{"array 100,000 deep", `{"message":"m","x":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`, "levels deep"},
	{"10 MB params", `{"message":"` + strings.Repeat("x", 10<<20) + `"}`, "MB"},
	{"invalid UTF-8", "{\"message\":\"\xff\xfe\"}", "UTF-8"},
}

// answerWait is how soon a refusal must come: at once, not after a
// host's timeout. Reading 10 MB under the race detector on a loaded
// machine took 5.5 s.
const answerWait = 20 * time.Second

// TestUnreadableRequestsAnswered is the regression test for requests that
// got no answer at all over stdio: each gets -32602 with its reason at
// once, is reported as refused, and a normal request still works after.
func TestUnreadableRequestsAnswered(t *testing.T) {
	for _, tt := range unreadable {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeServer(t)
			c, r := dialFake(t, f)
			refused := make(chan Refusal, 1)
			r.OnRefused(func(x Refusal) { refused <- x })
			expectRefused(t, f, `{"jsonrpc":"2.0","id":"bad","method":"elicitation/create","params":`+tt.params+`}`, tt.reason)
			select {
			case x := <-refused:
				if !strings.Contains(x.Err.Error(), tt.reason) {
					t.Errorf("refusal says %v", x.Err)
				}
			case <-time.After(answerWait):
				t.Error("the refusal was not reported")
			}
			askAfter(t, f, c, r)
		})
	}
}

// expectRefused sends line, a request with id "bad", and checks that it is
// answered -32602 with reason, within answerWait.
func expectRefused(t *testing.T, f *fakeServer, line, reason string) {
	t.Helper()
	go f.send(line)
	start := time.Now()
	m := f.serveLegacy("")
	took := time.Since(start)
	if string(m.ID) != `"bad"` || m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(m.Error.Message, reason) {
		t.Fatalf("want -32602 saying %q, got %s %+v", reason, m.ID, m.Error)
	}
	if took > answerWait {
		t.Errorf("answered after %v", took)
	}
	t.Logf("answered in %v: %s", took, m.Error.Message)
}

// askAfter checks that the connection still works: a good request reaches
// the person and their answer the server.
func askAfter(t *testing.T, f *fakeServer, c *Conn, r *queued) {
	t.Helper()
	go f.send(elicitLine(`"after"`, "still there?"))
	e := next(t, r)
	if e.Message != "still there?" {
		t.Fatalf("got %q", e.Message)
	}
	e.Reply(forms.Result{Action: forms.Accept, Content: json.RawMessage(`{"ok":true}`)})
	if m := f.serveLegacy(""); string(m.ID) != `"after"` || !strings.Contains(string(m.Result), "accept") {
		t.Fatalf("answer %+v", m)
	}
	if err := c.Err(); err != nil {
		t.Fatalf("the connection was lost: %v", err)
	}
}

// TestUndecodableRequestsAnswered is the regression test for requests
// other than elicitation/create that mcp-go cannot decode over stdio,
// which got no answer and left the server waiting: each gets -32602 with
// its reason at once, and a normal request still works after.
func TestUndecodableRequestsAnswered(t *testing.T) {
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	tests := []struct {
		name, method, params, reason string
	}{
		{"ping with 1e400", "ping", `{"n":1e400}`, "number out of range"},
		{"unknown method 100,000 deep", "x/unknown", `{"x":` + deep + `}`, "levels deep"},
		{"sampling with 1e400", "sampling/createMessage", `{"messages":[],"maxTokens":1e400}`, "number out of range"},
		{"roots/list 100,000 deep", "roots/list", `{"x":` + deep + `}`, "levels deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeServer(t)
			c, r := dialFake(t, f)
			expectRefused(t, f, `{"jsonrpc":"2.0","id":"bad","method":"`+tt.method+`","params":`+tt.params+`}`, tt.reason)
			go f.send(`{"jsonrpc":"2.0","id":"bad","method":"ping"}`)
			if m := f.serveLegacy(""); string(m.ID) != `"bad"` || m.Error != nil || m.Result == nil {
				t.Fatalf("a normal ping with the same id got %s %+v", m.Result, m.Error)
			}
			askAfter(t, f, c, r)
		})
	}
}

// TestCutRequestsAnswered is the regression test for an elicitation line
// longer than link.MaxMessage whose id comes after its params: the tap
// handed mcp-go the cut line without its newline, which swallowed the
// next message. With an id it gets -32602, without one it is dropped, and
// the next message works either way.
func TestCutRequestsAnswered(t *testing.T) {
	params := `{"message":"` + strings.Repeat("x", 9<<20) + `"}`
	tests := []struct {
		name, line string
		answered   bool
	}{
		{"id after params", `{"jsonrpc":"2.0","method":"elicitation/create","params":` + params + `,"id":"bad"}`, true},
		{"id after params, spaced", `{"jsonrpc":"2.0","method":"elicitation/create","params":` + params + ` , "id" : "bad" }`, true},
		{"no id", `{"jsonrpc":"2.0","method":"elicitation/create","params":` + params + `}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeServer(t)
			c, r := dialFake(t, f)
			f.send(tt.line) // before askAfter's line; the tap reads it at once
			if tt.answered {
				m := f.serveLegacy("")
				if string(m.ID) != `"bad"` || m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(m.Error.Message, "MB") {
					t.Fatalf("want -32602 saying MB, got %s %+v", m.ID, m.Error)
				}
			}
			askAfter(t, f, c, r)
		})
	}
}
