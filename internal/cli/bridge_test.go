//go:build unix

package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrg/xdg"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/internal/history"
)

// TestBridgeEndsItsServer: when the host closes the bridge's stdin, the
// bridge ends its server's whole process group within a second.
func TestBridgeEndsItsServer(t *testing.T) {
	noApp(t)
	exe := asElicitdesk(t)
	t.Setenv("GORACE", "atexit_sleep_ms=0")     // -race's exit otherwise waits a second of its own
	marker := fmt.Sprintf("1%d.5", os.Getpid()) // the server's sleeps, to find them
	t.Cleanup(func() { exec.Command("pkill", "-f", "sleep "+marker).Run() })
	cmd := exec.Command(exe, "bridge", "--", "sh", "-c", "sleep "+marker+" & exec sleep "+marker)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for len(sleeping(marker)) < 2 {
		time.Sleep(10 * time.Millisecond) // until both sleeps run: nothing to wait on
	}
	closed := time.Now()
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the bridge exited with %v:\n%s", err, stderr.String())
	}
	took := time.Since(closed)
	if left := sleeping(marker); len(left) > 0 {
		t.Fatalf("the server's processes %v outlived the bridge", left)
	}
	if took > time.Second {
		t.Errorf("the bridge took %s to end its server, want at most 1 s", took)
	}
	t.Logf("the bridge and its server were gone %s after the host closed stdin", took.Round(time.Millisecond))
}

// sleeping returns the pids of the processes running "sleep marker".
func sleeping(marker string) []string {
	var pids []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		if b, err := os.ReadFile(filepath.Join(d, "cmdline")); err == nil && string(b) == "sleep\x00"+marker+"\x00" {
			pids = append(pids, filepath.Base(d))
		}
	}
	return pids
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
