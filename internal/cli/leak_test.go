package cli

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitdesk/elicitdesk/internal/testkit/leaktest"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

// TestCommandsLeaveNoGoroutines runs tools and call against the demo
// server over stdio and Streamable HTTP and checks that each command has
// ended every goroutine it started when it returns: one still answering
// the server would write into stderr while the caller reads it.
func TestCommandsLeaveNoGoroutines(t *testing.T) {
	srv := httptest.NewServer(server.NewStreamableHTTPServer(demo.NewServer()))
	defer srv.Close()
	// 2025-11-25: the demo server asks over HTTP only before 2026-07-28,
	// and asking is what starts the goroutines that answer.
	config := filepath.Join(t.TempDir(), "servers.json")
	entry := fmt.Sprintf(`{"mcpServers": {"web": {"url": %q, "protocolVersion": "2025-11-25"}}}`, srv.URL)
	if err := os.WriteFile(config, []byte(entry), 0o600); err != nil {
		t.Fatal(err)
	}
	targets := []struct {
		name string
		args []string
	}{
		{"stdio", demoCommand(t)},
		{"streamable HTTP", []string{"-config", config, "-server", "web"}},
	}
	commands := []struct {
		name string
		args []string
	}{
		{"tools", []string{"tools"}},
		{"call accept", []string{"call", "-tool", demo.ToolAskEveryField, "-answer", "defaults"}},
		{"call decline twice", []string{"call", "-tool", demo.ToolAskTwice, "-answer", "decline"}},
	}
	// os/signal starts one goroutine for the process at the first Notify
	// and keeps it: start it before counting.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT)
	signal.Stop(sig)
	for _, target := range targets {
		for _, cmd := range commands {
			t.Run(target.name+"/"+cmd.name, func(t *testing.T) {
				ended := leaktest.Check(t)
				var stdout, stderr bytes.Buffer
				args := slices.Concat(cmd.args, target.args)
				if code := Run(args, nil, &stdout, &stderr); code != 0 {
					t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
				}
				ended()
			})
		}
	}
}
