//go:build !windows

package endpoint

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// TestForwardedMayOnlyAsk: a connection forwarded from another machine
// asks and lists its sessions as a bridge does, and is refused the rest:
// the app's front, its tools, its traffic, its history and its forwards,
// its own included.
func TestForwardedMayOnlyAsk(t *testing.T) {
	h := newHandler()
	path := filepath.Join(privateTempDir(t), "devbox.sock")
	s, err := ListenForwarded(path, h, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	c := dialClient(t, path)
	params := json.RawMessage(`{"message":"Pick one","requestedSchema":{"type":"object","properties":{}}}`)
	if res, err := c.Elicit(t.Context(), Question{Session: session("s1", "echo"), Params: params}); err != nil || string(res) != string(params) {
		t.Errorf("a forwarded Elicit = %s, %v", res, err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- c.Bridge(ctx, session("s2", "files")) }()
	if got := await(t, h.bridged, "the forwarded session listed"); got.ID != "s2" {
		t.Errorf("listed %+v", got)
	}
	cancel()
	<-done

	for name, call := range map[string]func() error{
		"front":     func() error { return c.Front(t.Context()) },
		"tools":     func() error { _, err := c.CallTool(t.Context(), ToolCall{Server: "demo", Tool: "echo"}); return err },
		"traffic":   func() error { _, err := c.Traffic(t.Context(), TrafficQuery{}); return err },
		"servers":   func() error { _, err := c.Servers(t.Context(), ServersQuery{}); return err },
		"forward":   func() error { _, err := c.Forward(t.Context(), "elsewhere"); return err },
		"unforward": func() error { return c.Unforward(t.Context(), "devbox") }, // not even itself
		"history": func() error {
			return c.Unshown(t.Context(), Unshown{Question: Question{Session: session("s1", "files"), Params: params}, Reason: "none"})
		},
	} {
		var e *jsonrpc.Error
		if err := call(); !errors.As(err, &e) || e.Code != jsonrpc.CodeMethodNotFound || !strings.Contains(e.Message, "forwarded from another machine") || !Forwarded(err) {
			t.Errorf("%s through a forward: %v, want it refused", name, err)
		}
	}
	select {
	case u := <-h.unshown:
		t.Errorf("a forwarded connection wrote the history: %+v", u)
	case <-h.fronts:
		t.Error("a forwarded connection brought the app forward")
	default:
	}
}

// TestNewerApp: a client told by an app of a newer release, in the
// handshake, says which release each side is and the protocol each speaks.
func TestNewerApp(t *testing.T) {
	path := filepath.Join(privateTempDir(t), "app.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		var hello struct{ ID json.RawMessage }
		line, _ := bufio.NewReader(c).ReadBytes('\n')
		json.Unmarshal(line, &hello)
		io.WriteString(c, `{"jsonrpc":"2.0","id":`+string(hello.ID)+`,"result":{"version":2,"release":"0.9.0"}}`+"\n")
		io.Copy(io.Discard, c)
	}()
	_, err = Dial(t.Context(), path)
	if want := fmt.Sprintf("the app is Elicit Desk 0.9.0 (endpoint protocol 2) and this elicitdesk is %s (protocol %d)", release(), Version); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Dial of a newer app: %v, want it to say %q", err, want)
	}
}
