package link

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitdesk/elicitdesk/internal/testkit/leaktest"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

// forwarder is the bridge in miniature: for each host session on l, a
// StreamableClient to upstream, and every message copied both ways.
type forwarder struct {
	l  *Listener
	hc *http.Client
	wg sync.WaitGroup
}

func startForwarder(t *testing.T, upstream string) *forwarder {
	t.Helper()
	l, err := Listen(context.Background(), "127.0.0.1:0", NewSecret(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	f := &forwarder{l: l, hc: testHTTP()}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		for {
			host, err := l.Accept()
			if err != nil {
				return
			}
			up := NewStreamableClient(upstream, nil, f.hc)
			f.wg.Add(2)
			go func() { defer f.wg.Done(); pump(host, up) }()
			go func() { defer f.wg.Done(); pump(up, host) }()
		}
	}()
	return f
}

// pump copies from's messages to to until from ends, then closes to.
func pump(from, to Link) {
	defer to.Close()
	for {
		m, err := from.Read()
		var bad *BadMessage
		switch {
		case errors.As(err, &bad):
			continue
		case err != nil:
			return
		}
		if err := to.Write(context.Background(), m); errors.Is(err, ErrSessionGone) {
			return
		}
	}
}

func (f *forwarder) url() string { return f.l.URL() }

func (f *forwarder) close() {
	f.l.Close()
	f.wg.Wait()
	f.hc.CloseIdleConnections()
}

// host is a raw Streamable HTTP host, to see the bytes that reach it.
type host struct {
	t       *testing.T
	hc      *http.Client
	url     string
	sid     string
	version string
}

// post sends one message and returns the data of every event of the
// answer, or the JSON body, and the status.
func (h *host) post(body string, onEvent func(string)) (int, []string) {
	h.t.Helper()
	req, _ := http.NewRequest("POST", h.url, strings.NewReader(body))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if h.sid != "" {
		req.Header.Set(headerSession, h.sid)
	}
	if h.version != "" {
		req.Header.Set(headerVersion, h.version)
	}
	resp, err := h.hc.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	if s := resp.Header.Get(headerSession); s != "" {
		h.sid = s
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		if len(b) == 0 {
			return resp.StatusCode, nil
		}
		return resp.StatusCode, []string{string(b)}
	}
	var out []string
	r := newEventReader(resp.Body)
	for {
		ev, err := r.next()
		if err != nil {
			return resp.StatusCode, out
		}
		if len(ev.Data) == 0 {
			continue
		}
		out = append(out, string(ev.Data))
		if onEvent != nil {
			onEvent(string(ev.Data))
		}
	}
}

func (h *host) delete() {
	req, _ := http.NewRequest("DELETE", h.url, nil)
	req.Header.Set(headerSession, h.sid)
	if resp, err := h.hc.Do(req); err == nil {
		resp.Body.Close()
	}
}

const hostInit = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`

// TestForwardMCPGo runs a host through Listener, forwarder and
// StreamableClient to an mcp-go server that asks the host a question in
// the middle of a tool call, and checks the host sees what a direct
// connection sees.
func TestForwardMCPGo(t *testing.T) {
	defer leaktest.Check(t)()
	srv := httptest.NewServer(server.NewStreamableHTTPServer(demo.NewServer()))
	defer srv.Close()
	fw := startForwarder(t, srv.URL)
	defer fw.close()
	hc := testHTTP()
	defer hc.CloseIdleConnections()

	direct := &host{t: t, hc: hc, url: srv.URL}
	bridged := &host{t: t, hc: hc, url: fw.url()}
	var lists []string
	for _, h := range []*host{direct, bridged} {
		code, got := h.post(hostInit, nil)
		if code != 200 || len(got) != 1 || !strings.Contains(got[0], `"protocolVersion":"2025-06-18"`) || h.sid == "" {
			t.Fatalf("initialize: %d %q sid %q", code, got, h.sid)
		}
		h.version = "2025-06-18"
		if code, _ := h.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil); code != http.StatusAccepted {
			t.Fatalf("initialized: %d", code)
		}
		_, got = h.post(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil)
		if len(got) != 1 {
			t.Fatalf("tools/list: %q", got)
		}
		lists = append(lists, got[0])
	}
	if strings.TrimSpace(lists[0]) != lists[1] {
		t.Errorf("tools/list differs:\ndirect  %s\nbridged %s", lists[0], lists[1])
	}

	// The elicitation arrives on the tool call's stream; the host answers
	// it with a POST of its own while that stream stays open.
	call := fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, demo.ToolAskConfirm)
	var answered sync.WaitGroup
	_, got := bridged.post(call, func(data string) {
		m, err := Parse([]byte(data))
		if err != nil || m.Method != "elicitation/create" {
			return
		}
		answer := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"action":"accept","content":{"confirm":true}}}`
		answered.Add(1)
		go func() {
			defer answered.Done()
			if code, _ := bridged.post(answer, nil); code != http.StatusAccepted {
				t.Errorf("answer: %d", code)
			}
		}()
	})
	answered.Wait()
	if len(got) < 2 || !strings.Contains(got[0], "elicitation/create") || !strings.Contains(got[len(got)-1], `"id":2`) {
		t.Fatalf("tools/call stream: %q", got)
	}
	bridged.delete()
	direct.delete()
}

// TestForwardEverything does the same against the reference server, over
// Streamable HTTP, when ELICITDESK_PEERS names its node_modules.
func TestForwardEverything(t *testing.T) {
	url := startEverything(t)
	defer leaktest.Check(t)()
	fw := startForwarder(t, url)
	defer fw.close()
	hc := testHTTP()
	defer hc.CloseIdleConnections()
	h := &host{t: t, hc: hc, url: fw.url()}
	if code, got := h.post(hostInit, nil); code != 200 || len(got) != 1 || !strings.Contains(got[0], "serverInfo") {
		t.Fatalf("initialize: %d %q", code, got)
	}
	h.version = "2025-06-18"
	h.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
	_, got := h.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"héllo"}}}`, nil)
	if len(got) == 0 || !strings.Contains(got[len(got)-1], "héllo") {
		t.Fatalf("echo: %q", got)
	}
	h.delete()
}

// startEverything starts server-everything over Streamable HTTP and
// returns its MCP endpoint, or skips without ELICITDESK_PEERS. When the
// test fails, its log says whether the server had exited and what it
// printed: a peer that died mid-test reads otherwise as refused
// connections through the bridge.
func startEverything(t *testing.T) string {
	t.Helper()
	peers := os.Getenv("ELICITDESK_PEERS")
	if peers == "" {
		t.Skip("ELICITDESK_PEERS is not set: make test installs the peers and sets it")
	}
	port := freePort(t)
	cmd := exec.Command(filepath.Join(peers, ".bin", "node"), filepath.Join(peers, "@modelcontextprotocol/server-everything/dist/index.js"), "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+port)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var (
		mu      sync.Mutex
		printed []string // its last lines, for a failing test's log
	)
	ready, exited := make(chan struct{}), make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		for listening := false; sc.Scan(); {
			if !listening && strings.Contains(sc.Text(), "listening on port") {
				listening = true
				close(ready)
			}
			mu.Lock()
			printed = append(printed[max(0, len(printed)-19):], sc.Text())
			mu.Unlock()
		}
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		state := "was still running"
		select {
		case <-exited:
			state = fmt.Sprintf("had exited (%v)", cmd.ProcessState)
		default:
			cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("server-everything %s; its last lines:\n%s", state, strings.Join(printed, "\n"))
		}
	})
	select {
	case <-ready:
	case <-exited:
		t.Fatalf("server-everything ended before listening (%v): %s", cmd.ProcessState, strings.Join(printed, "\n"))
	case <-time.After(30 * time.Second):
		t.Fatal("server-everything did not start")
	}
	return "http://127.0.0.1:" + port + "/mcp"
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := Listen(context.Background(), "127.0.0.1:0", NewSecret(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := strings.Cut(l.Addr().String(), ":")
	l.Close()
	return port
}
