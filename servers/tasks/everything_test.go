package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// peer is a minimal client over a link, as the one MCP client will be:
// calls matched by id, the server's elicitation/create answered by ask.
type peer struct {
	l       link.Link
	ask     Ask
	mu      sync.Mutex
	waiting map[string]chan link.Message
	next    int
}

func (p *peer) read() {
	for {
		m, err := p.l.Read()
		if errors.As(err, new(*link.BadMessage)) {
			continue
		}
		if err != nil {
			return
		}
		switch {
		case m.IsResponse():
			p.mu.Lock()
			ch := p.waiting[m.Answers()]
			delete(p.waiting, m.Answers())
			p.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case m.Method == "elicitation/create" && m.ID != nil:
			go func() {
				res, err := p.ask(context.Background(), m.Method, json.RawMessage(gjson.GetBytes(m.Raw, "params").Raw))
				if err != nil {
					res = json.RawMessage(`{"action":"cancel"}`)
				}
				p.l.Write(context.Background(), link.Message{Raw: fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, res)})
			}()
		case m.IsRequest():
			p.l.Write(context.Background(), link.Message{Raw: fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"not here"}}`, m.ID)})
		}
	}
}

func (p *peer) call(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	p.mu.Lock()
	p.next++
	id := fmt.Sprint(p.next)
	ch := make(chan link.Message, 1)
	p.waiting[link.IDKey(json.RawMessage(id))] = ch
	p.mu.Unlock()
	raw := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, params)
	if err := p.l.Write(ctx, link.Message{Raw: raw, ID: json.RawMessage(id), Method: method}); err != nil {
		return nil, err
	}
	select {
	case m := <-ch:
		if e := gjson.GetBytes(m.Raw, "error"); e.Exists() {
			return nil, &jsonrpc.Error{Code: int(e.Get("code").Int()), Message: e.Get("message").String()}
		}
		return json.RawMessage(gjson.GetBytes(m.Raw, "result").Raw), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TestFollowEverything runs server-everything's simulate-research-query,
// a tool that must run as a 2025-11-25 task and asks for input on the
// tasks/result stream, as `call` runs a tool: the tool is Wanted as a
// task, and Follow returns its result after one question.
func TestFollowEverything(t *testing.T) {
	peers := os.Getenv("ELICITDESK_PEERS")
	if peers == "" {
		t.Skip("ELICITDESK_PEERS is not set: make test installs the peers and sets it")
	}
	t.Parallel()
	cmd := exec.Command(filepath.Join(peers, ".bin", "node"), filepath.Join(peers, "@modelcontextprotocol/server-everything/dist/index.js"), "stdio")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	l := link.NewLines(stdout, stdin)
	t.Cleanup(func() {
		l.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	var asked atomic.Int32
	p := &peer{l: l, waiting: map[string]chan link.Message{}, ask: func(_ context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
		asked.Add(1)
		if !gjson.GetBytes(params, `_meta.io\.modelcontextprotocol/related-task.taskId`).Exists() {
			t.Errorf("asked %s %s, want the task's elicitation", method, params)
		}
		return json.RawMessage(`{"action":"accept","content":{"interpretation":"programming"}}`), nil
	}}
	go p.read()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	init, err := p.call(ctx, "initialize", json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"test","version":"1"}}`))
	if err != nil {
		t.Fatal(err)
	}
	l.Write(ctx, link.Message{Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), Method: "notifications/initialized"})
	list, err := p.call(ctx, "tools/list", json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	tool := json.RawMessage(gjson.GetBytes(list, `tools.#(name=="simulate-research-query")`).Raw)
	if !Wanted(json.RawMessage(gjson.GetBytes(init, "capabilities").Raw), tool) {
		t.Fatalf("the tool is not wanted as a task: %s", tool)
	}
	params, _ := AsTask(json.RawMessage(`{"name":"simulate-research-query","arguments":{"topic":"python","ambiguous":true}}`))
	first, err := p.call(ctx, "tools/call", params)
	if err != nil {
		t.Fatal(err)
	}
	f := &Follower{Call: p.call, Ask: p.ask}
	res, err := f.Follow(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if text := gjson.GetBytes(res, "content.0.text").String(); !strings.Contains(text, "Clarification**: programming") {
		t.Errorf("the tool returned %s", res)
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("asked %d times, want once", n)
	}
}
