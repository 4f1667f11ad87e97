package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// deafEnv makes the test binary, re-run as a child, serve an MCP server
// that stops reading: its tool "stuff" answers, then the server reads its
// stdin no more and sends 300 requests with ids of a kilobyte, whose
// answers fill the pipe to it.
const deafEnv = "ELICITDESK_TEST_DEAF_SERVER"

// serveDeaf is the server deafEnv asks for, on stdin and stdout.
func serveDeaf() int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := json.NewEncoder(os.Stdout)
	reply := func(id json.RawMessage, result any) {
		out.Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	}
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Name            string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil || m.ID == nil {
			continue
		}
		switch m.Method {
		case "initialize":
			reply(m.ID, map[string]any{"protocolVersion": m.Params.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "deaf", "version": "1"}})
		case "tools/list":
			object := map[string]any{"type": "object"}
			reply(m.ID, map[string]any{"tools": []any{map[string]any{"name": "stuff", "inputSchema": object}, map[string]any{"name": "simple", "inputSchema": object}}})
		case "tools/call":
			reply(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}})
			if m.Params.Name == "stuff" {
				for i := range 300 {
					out.Encode(map[string]any{"jsonrpc": "2.0", "id": fmt.Sprintf("id-%d-%s", i, strings.Repeat("x", 1000)), "method": "no/such/method"})
				}
				select {}
			}
		default:
			reply(m.ID, map[string]any{})
		}
	}
	return 0
}

// TestQuitBehindAServerThatStoppedReading: quitting while tool calls wait
// to write to a server that no longer reads (the app's answers to its
// requests fill the pipe) ends the core within 5 s, as any quit does.
// Their writes waited for ever, and Quit for them.
func TestQuitBehindAServerThatStoppedReading(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	d := startDesktopArgs(t, fmt.Sprintf(`{"mcpServers": {"deaf": {"command": %q, "env": {%q: "1"}}}}`, exe, deafEnv), []string{"-background"}, false)
	d.waitReady(1)
	if out, err := d.run(d.bin, "call", "-server", "deaf", "-tool", "stuff", "-answer", "desk"); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	args := `{"a":"` + strings.Repeat("x", 100_000) + `"}`
	for range 3 {
		c := exec.Command(d.bin, "call", "-server", "deaf", "-tool", "simple", "-answer", "desk", "-args", args)
		c.Env = d.env
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	}
	d.waitLogged(`msg="tool call from a script"`, 4)
	d.app.Process.Signal(syscall.SIGTERM)
	ended := make(chan error, 1)
	go func() { ended <- d.app.Wait() }()
	const bound = 5 * time.Second
	select {
	case <-ended:
	case <-time.After(bound):
		d.app.Process.Signal(syscall.SIGQUIT) // its goroutines, in the log
		<-ended
		t.Fatalf("the core did not end within %v of quitting", bound)
	}
	if !strings.Contains(d.log.String(), `msg=quitting why="signal terminated"`) {
		t.Error("the log does not say why the app quit")
	}
}
