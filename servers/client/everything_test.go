package client

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// TestCallToolTaskEverything runs server-everything's
// simulate-research-query, a tool that must run as a 2025-11-25 task and
// asks for input on the tasks/result stream, as `call` and the windows
// run a tool: CallTool asks for a task, answers the one question through
// Elicit, and returns the task's result.
func TestCallToolTaskEverything(t *testing.T) {
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
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	var asked atomic.Int32
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Connect(ctx, link.NewLines(stdout, stdin), Options{
		Info: Implementation{Name: "test", Version: "1"},
		Elicit: func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
			asked.Add(1)
			if !gjson.GetBytes(params, `_meta.io\.modelcontextprotocol/related-task.taskId`).Exists() {
				t.Errorf("asked %s, want the task's elicitation", params)
			}
			return json.RawMessage(`{"action":"accept","content":{"interpretation":"programming"}}`), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.CallTool(ctx, "simulate-research-query", json.RawMessage(`{"topic":"python","ambiguous":true}`))
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
