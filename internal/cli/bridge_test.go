//go:build unix

package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrg/xdg"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/internal/deskclient"
	"github.com/elicitdesk/elicitdesk/internal/history"
)

// TestTwentyBridges runs twenty hosts at once, each through a bridge of
// its own to the demo server: independent sessions, each answered.
func TestTwentyBridges(t *testing.T) {
	noApp(t)
	exe := asElicitdesk(t)
	demo := demoCommand(t)[1:]
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- bridgedCall(exe, demo, i)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	// Each refusal is in the history as no-window, with the host it was for.
	store, err := history.OpenReadOnly(history.DefaultPath(xdg.DataHome))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	entries, err := store.Search(context.Background(), history.Query{Outcome: history.NoWindow})
	if err != nil {
		t.Fatal(err)
	}
	hosts := map[string]bool{}
	for _, e := range entries {
		hosts[string(e.Server.Host.Name)] = true
	}
	if len(entries) != 20 || len(hosts) != 20 {
		t.Errorf("the history has %d no-window entries for hosts %v, want one for each of 20 hosts", len(entries), hosts)
	}
}

// bridgedCall is host i: it calls the demo's ask_confirm through a bridge
// and checks the bridge answered cancel for the person it could not ask.
func bridgedCall(exe string, demo []string, i int) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	host, err := client.NewStdioMCPClient(exe, os.Environ(), append([]string{"bridge", "--"}, demo...)...)
	if err != nil {
		return fmt.Errorf("host %d: %w", i, err)
	}
	defer host.Close()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: fmt.Sprintf("host-%d", i)}
	if _, err := host.Initialize(ctx, init); err != nil {
		return fmt.Errorf("host %d: initialize: %w", i, err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "ask_confirm"
	res, err := host.CallTool(ctx, req)
	if err != nil {
		return fmt.Errorf("host %d: %w", i, err)
	}
	text := fmt.Sprint(res.Content)
	if !strings.Contains(text, "cancel") {
		return fmt.Errorf("host %d got %s, want the demo's report of a cancel", i, text)
	}
	return nil
}

// bridged is a host's session through a bridge the test started.
type bridged struct {
	host   *client.Client
	cmd    *exec.Cmd // the bridge
	stdin  io.Closer
	stderr *logBuffer
	ended  sync.Once
}

// startBridge starts cmd, a bridge, and initializes a host's session
// through it; the session ends with t.
func startBridge(t testing.TB, ctx context.Context, cmd *exec.Cmd) *bridged {
	t.Helper()
	b := &bridged{cmd: cmd, stderr: &logBuffer{}}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = b.stderr // cmd.Wait waits for all of it
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	b.stdin = stdin
	b.host = client.NewClient(transport.NewIO(stdout, stdin, io.NopCloser(strings.NewReader(""))))
	t.Cleanup(b.end)
	if err := b.host.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "stripped-host"}
	if _, err := b.host.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v\n%s", err, b.stderr)
	}
	return b
}

// confirm calls the demo's ask_confirm and returns what the demo reports.
func (b *bridged) confirm(t testing.TB, ctx context.Context) string {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "ask_confirm"
	res, err := b.host.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("ask_confirm: %v\nthe bridge said:\n%s", err, b.stderr)
	}
	return fmt.Sprint(res.Content)
}

// end closes the host's side, as a host that goes away does, and waits
// for the bridge to exit.
func (b *bridged) end() {
	b.ended.Do(func() {
		b.stdin.Close()
		b.cmd.Wait()
		b.host.Close()
	})
}

// TestBridgeSaysAppNotRunning: a bridge that can neither reach the app nor
// have it started (no bus, no display) says on stderr what the person
// should do, once, whoever then answers: hosts show it in their MCP logs.
func TestBridgeSaysAppNotRunning(t *testing.T) {
	noApp(t)
	exe := asElicitdesk(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b := startBridge(t, ctx, exec.Command(exe, append([]string{"bridge", "--"}, demoCommand(t)[1:]...)...))
	for range 2 {
		if got := b.confirm(t, ctx); !strings.Contains(got, "The client cancelled.") {
			t.Errorf("the host got %s, want the bridge's cancel for the person it could not ask", got)
		}
	}
	b.end()
	if n := strings.Count(b.stderr.String(), "elicitdesk bridge: "+deskclient.NotRunning+"\n"); n != 1 {
		t.Errorf("the bridge said %d times what to do, want once:\n%s", n, b.stderr)
	}
}
