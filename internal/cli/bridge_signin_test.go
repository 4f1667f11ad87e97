//go:build unix

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/tailscale/hujson"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers/demo"
	"github.com/elicitdesk/elicitdesk/servers/signin/signintest"
)

// confirmingPerson is a person at the endpoint, until ctx ends or stop is
// called, who accepts ask_confirm's question.
func confirmingPerson(t *testing.T, ctx context.Context) (p person, stop func()) {
	t.Helper()
	path, err := endpoint.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	p = person{answer: json.RawMessage(`{"action":"accept","content":{"confirm":true}}`), asked: make(chan endpoint.Question, 1)}
	srv, err := endpoint.Listen(ctx, path, p, slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	return p, func() { srv.Close() }
}

// bridgedRemote is a Go host (mcp-go's client) running argv, a bridge to a
// remote demo server, with a person at the endpoint who accepts whatever
// is asked: it returns the tools the host saw, ask_confirm's result and
// what the person was asked.
func bridgedRemote(t *testing.T, exe string, argv ...string) (tools []string, confirmed string, asked endpoint.Question) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, stop := confirmingPerson(t, ctx)
	defer stop()

	tr := transport.NewStdio(exe, os.Environ(), argv...)
	host := client.NewClient(tr, client.WithProtocolVersion(mcp.ProtocolVersion20251125))
	if err := host.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	var bridgeLog logBuffer
	go io.Copy(&bridgeLog, tr.Stderr())
	defer func() {
		if t.Failed() {
			t.Logf("the bridge's stderr:\n%s", &bridgeLog)
		}
	}()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	init.Params.ClientInfo = mcp.Implementation{Name: "go-host"}
	if _, err := host.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize through the bridge: %v", err)
	}
	list, err := host.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list through the bridge: %v", err)
	}
	for _, tool := range list.Tools {
		tools = append(tools, tool.Name)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = demo.ToolAskConfirm
	res, err := host.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s through the bridge: %v", req.Params.Name, err)
	}
	select {
	case asked = <-p.asked:
	default:
		t.Fatalf("the call ended without asking the person: %+v", res)
	}
	return tools, fmt.Sprint(res.Content), asked
}

// TestBridgeSignsIn: a host runs the bridge to a remote server that wants
// a sign-in. The bridge signs in through the browser (a stand-in that
// approves at once), keeps the sign-in where login keeps it, and the
// server's elicitation reaches the person.
func TestBridgeSignsIn(t *testing.T) {
	noApp(t)
	file := signInEnv(t, "curl -fsSL -o /dev/null")
	s := signintest.New(t)
	s.MCP = server.NewStreamableHTTPServer(demo.NewServer())
	exe := asElicitdesk(t)

	tools, confirmed, asked := bridgedRemote(t, exe, "bridge", "-url", s.URL(), "-header", "X-Desk: test")
	if !strings.Contains(strings.Join(tools, " "), demo.ToolAskConfirm) {
		t.Errorf("tools through the bridge: %v", tools)
	}
	if !strings.Contains(confirmed, "accept") {
		t.Errorf("ask_confirm through the bridge: %s", confirmed)
	}
	if !strings.Contains(string(asked.Params), "confirm") {
		t.Errorf("the person was asked %s", asked.Params)
	}
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), s.URL()) {
		t.Error("the bridge's sign-in was not kept in the shared store")
	}
	// The sign-in the bridge kept serves the next run: no browser.
	t.Setenv("ELICITDESK_BROWSER", "false")
	grants := s.Grants()
	bridgedRemote(t, exe, "bridge", "-url", s.URL())
	if s.Grants() != grants {
		t.Error("the second bridge signed in again instead of using the stored sign-in")
	}
	// An entry's own Authorization is the person's choice: the stored
	// sign-in does not stand in for it, and no sign-in starts.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	host := client.NewClient(transport.NewStdio(exe, os.Environ(), "bridge", "-url", s.URL(), "-header", "Authorization: Bearer mine"))
	if err := host.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	if _, err := host.Initialize(ctx, init); err == nil {
		t.Error("the server took the entry's own token: the stored sign-in stood in for it")
	}
	if s.Grants() != grants {
		t.Error("a bridge with its own Authorization signed in")
	}
}

// TestBridgeSignInFails: a sign-in that fails reaches the host as the
// error of its request, saying why, and no secret is in it.
func TestBridgeSignInFails(t *testing.T) {
	noApp(t)
	signInEnv(t, "false")
	s := signintest.New(t)
	s.MCP = server.NewStreamableHTTPServer(demo.NewServer())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tr := transport.NewStdio(asElicitdesk(t), os.Environ(), "bridge", "-url", s.URL())
	host := client.NewClient(tr)
	if err := host.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var stderr logBuffer
	copied := make(chan struct{})
	go func() {
		io.Copy(&stderr, tr.Stderr())
		close(copied)
	}()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	_, err := host.Initialize(ctx, init)
	want := "signing in to " + s.URL() + ": cannot open the browser"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), signintest.SecretMark) {
		t.Errorf("initialize: %v, want an error with %q", err, want)
	}
	host.Close() // the bridge ends, and so does its stderr
	<-copied
	if line := "elicitdesk bridge: " + s.URL() + ": Sign-in failed: cannot open the browser"; !strings.Contains(stderr.String(), line) || strings.Contains(stderr.String(), signintest.SecretMark) {
		t.Errorf("the bridge's stderr, which hosts log:\n%s\nwant %q", &stderr, line)
	}
}

// TestRoutedRemoteEntry routes a Cursor config's remote entry, with a
// header, to a server that wants a sign-in, and runs the entry as the
// host would (command, args and env from the rewritten file) with the
// TypeScript SDK's client (when the peers are installed) and a Go host: the bridge signs in through the browser stand-in, the tools come
// through, the header reaches the server from the env and not the command
// line, and the server's elicitation reaches the person. Unrouting gives
// the file back.
func TestRoutedRemoteEntry(t *testing.T) {
	s := signintest.New(t)
	demoHTTP := server.NewStreamableHTTPServer(demo.NewServer())
	var keys sync.Map // the X-Desk-Key values the server received
	s.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		keys.Store(r.Header.Get("X-Desk-Key"), true)
		demoHTTP.ServeHTTP(w, r)
	})
	orig := fmt.Sprintf(`{
  "mcpServers": {
    "protected": {
      "url": %q,
      "headers": {"X-Desk-Key": "key-of-the-entry"}
    }
  }
}
`, s.URL())
	path := hostsHome(t, orig)
	noApp(t)
	signInEnv(t, "curl -fsSL -o /dev/null")
	// elicitdesk, as unroute knows it by its name: this test binary, or
	// the built one, under that name.
	bin := filepath.Join(t.TempDir(), "elicitdesk")
	if err := os.Link(elicitdeskBin(t), bin); err != nil { // another file system: a copy
		data, err := os.ReadFile(elicitdeskBin(t))
		if err == nil {
			err = os.WriteFile(bin, data, 0o700)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	hosts := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(bin, append([]string{"hosts"}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("hosts %q: %v\n%s", args, err, out)
		}
	}
	hosts("route", "cursor")
	routed, _ := os.ReadFile(path)
	v, err := hujson.Standardize(routed)
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
			Env     map[string]string
		}
	}
	if err := json.Unmarshal(v, &cfg); err != nil {
		t.Fatal(err)
	}
	e := cfg.MCPServers["protected"]
	if !slices.Equal(e.Args[:min(4, len(e.Args))], []string{"bridge", "-name=protected", "-url", s.URL()}) || strings.Contains(strings.Join(e.Args, " "), "key-of-the-entry") {
		t.Fatalf("the routed entry runs %s %q", e.Command, e.Args)
	}
	for k, v := range e.Env {
		t.Setenv(k, v)
	}

	t.Run("typescript host", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		p, stop := confirmingPerson(t, ctx)
		defer stop()
		h := startHost(t, os.Environ(), append([]string{"--call", demo.ToolAskConfirm, "--", e.Command}, e.Args...)...)
		if tools := h.next(time.Minute); !strings.Contains(tools, demo.ToolAskConfirm) {
			t.Errorf("the host sees the tools %s", tools)
		}
		if confirmed := h.next(time.Minute); !strings.Contains(confirmed, "accept") {
			t.Errorf("ask_confirm through the routed entry: %s", confirmed)
		}
		select {
		case <-p.asked:
		default:
			t.Error("the call ended without asking the person")
		}
		if err := h.wait(); err != nil {
			t.Errorf("host: %v", err)
		}
	})
	t.Run("go host", func(t *testing.T) {
		tools, confirmed, asked := bridgedRemote(t, e.Command, e.Args...)
		if !strings.Contains(strings.Join(tools, " "), demo.ToolAskConfirm) || !strings.Contains(confirmed, "accept") || !strings.Contains(string(asked.Params), "confirm") {
			t.Errorf("through the routed entry: tools %v, ask_confirm %s, the person was asked %s", tools, confirmed, asked.Params)
		}
	})
	if _, ok := keys.Load("key-of-the-entry"); !ok {
		t.Error("the entry's header did not reach the server")
	}

	hosts("unroute", "cursor")
	if back, _ := os.ReadFile(path); string(back) != orig {
		t.Errorf("unroute did not give the file back:\n%s", back)
	}
}
