//go:build unix

package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrg/xdg"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/internal/history"
)

// noApp makes the bridges a test starts find no app and no display: their
// elicitations go to the host if it declared them, else are answered cancel.
func noApp(t *testing.T) {
	t.Helper()
	t.Cleanup(xdg.Reload) // last, once the environment is back
	dir := t.TempDir()
	os.Chmod(dir, 0o700)
	t.Setenv("XDG_RUNTIME_DIR", dir)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	xdg.Reload() // so this process finds the same endpoint as its children
}

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
