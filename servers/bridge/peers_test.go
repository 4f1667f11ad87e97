package bridge

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// everything starts the reference server-everything over stdio and runs
// a session between it and a test host: the real server, the bridge, and
// a desk the test answers.
func everything(t *testing.T) *session {
	t.Helper()
	peers := os.Getenv("ELICITDESK_PEERS")
	if peers == "" {
		t.Skip("ELICITDESK_PEERS is not set: make test installs the peers and sets it")
	}
	cmd := exec.Command(filepath.Join(peers, ".bin", "node"), filepath.Join(peers, "@modelcontextprotocol/server-everything/dist/index.js"), "stdio")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	hl, host := pipe(t)
	s := run(t, hl, link.NewLines(stdout, stdin), newDesk(), Options{})
	s.host = host
	s.host.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":` + taskHostCaps + `,"clientInfo":{"name":"test-host","version":"1"}}}`)
	if got := s.host.next(); !strings.Contains(got, "serverInfo") {
		t.Fatalf("initialize: %s", got)
	}
	s.host.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

// response skips to the host's answer to request id.
func (p *end) response(id int64) string {
	p.t.Helper()
	for {
		l := p.next()
		if v := gjson.Get(l, "id"); v.Exists() && v.Int() == id && !gjson.Get(l, "method").Exists() {
			return l
		}
	}
}

// TestEverythingElicitationTask runs server-everything's
// trigger-elicitation-request-async through the bridge: the server asks
// its client to run the elicitation as a task, the bridge does, the person
// answers in one window while the server polls, and the tool reports the
// answer.
func TestEverythingElicitationTask(t *testing.T) {
	t.Parallel() // a server process each
	s := everything(t)
	s.host.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"trigger-elicitation-request-async","arguments":{}}}`)
	q := s.desk.question(t)
	if !strings.Contains(gjson.GetBytes(q.q.Params, "message").String(), "async task demo") {
		t.Errorf("the desk was asked %s", q.q.Params)
	}
	q.answer <- answer{raw: json.RawMessage(`{"action":"accept","content":{"name":"Ada","favoriteColor":"Blue","agreeToTerms":true}}`)}
	got := s.host.response(2)
	text := gjson.Get(got, "result.content.#.text").String()
	if !strings.Contains(text, "[COMPLETED]") || !strings.Contains(text, "Name: Ada") || !strings.Contains(text, "Task created: elicitdesk-task-") {
		t.Errorf("the tool returned %s", got)
	}
	if err := s.stop(); err != nil && !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("the session ended with %v", err)
	}
	if n := len(s.desk.asked); n != 0 {
		t.Errorf("%d more windows opened", n)
	}
}

// TestEverythingToolTask runs server-everything's simulate-research-query
// as a 2025-11-25 task that needs input: the host polls the task twice and
// fetches its result twice at once, the server's elicitation comes on a
// tasks/result stream with the related-task _meta, and the person answers
// it in one window.
func TestEverythingToolTask(t *testing.T) {
	t.Parallel() // a server process each
	s := everything(t)
	s.host.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"simulate-research-query","arguments":{"topic":"python","ambiguous":true},"task":{"ttl":60000}}}`)
	created := s.host.response(2)
	id := gjson.Get(created, "result.task.taskId").String()
	if id == "" {
		t.Fatalf("tools/call: %s", created)
	}
	for n := int64(3); n <= 4; n++ {
		s.host.send(`{"jsonrpc":"2.0","id":` + strconv.FormatInt(n, 10) + `,"method":"tasks/get","params":{"taskId":"` + id + `"}}`)
		if got := s.host.response(n); gjson.Get(got, "result.taskId").String() != id {
			t.Fatalf("tasks/get: %s", got)
		}
	}
	for n := int64(5); n <= 6; n++ {
		s.host.send(`{"jsonrpc":"2.0","id":` + strconv.FormatInt(n, 10) + `,"method":"tasks/result","params":{"taskId":"` + id + `"}}`)
	}
	q := s.desk.question(t)
	if !gjson.GetBytes(q.q.Params, `_meta.io\.modelcontextprotocol/related-task`).Exists() {
		t.Errorf("the desk was asked %s, want the task's elicitation", q.q.Params)
	}
	q.answer <- answer{raw: json.RawMessage(`{"action":"accept","content":{"interpretation":"programming"}}`)}
	for got := map[int64]bool{}; len(got) < 2; { // both answered, in either order
		l := s.host.next()
		if gjson.Get(l, "method").Exists() {
			continue
		}
		if id := gjson.Get(l, "id").Int(); id != 5 && id != 6 || got[id] || !strings.Contains(gjson.Get(l, "result.content.0.text").String(), "programming") {
			t.Fatalf("tasks/result: %s", l)
		}
		got[gjson.Get(l, "id").Int()] = true
	}
	s.stop()
	if n := len(s.desk.asked); n != 0 {
		t.Errorf("%d more windows opened", n)
	}
}
