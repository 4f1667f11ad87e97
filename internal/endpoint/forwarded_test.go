//go:build !windows

package endpoint

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// TestForwardedMayOnlyAsk: a connection forwarded from another machine
// asks and lists its sessions as a bridge does, and is refused the rest:
// the app's front, its tools, its traffic, its history and its forwards.
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
		"front":   func() error { return c.Front(t.Context()) },
		"tools":   func() error { _, err := c.CallTool(t.Context(), ToolCall{Server: "demo", Tool: "echo"}); return err },
		"traffic": func() error { _, err := c.Traffic(t.Context(), TrafficQuery{}); return err },
		"servers": func() error { _, err := c.Servers(t.Context()); return err },
		"forward": func() error { return c.Forward(t.Context(), "elsewhere") },
		"history": func() error {
			return c.Unshown(t.Context(), Unshown{Question: Question{Session: session("s1", "files"), Params: params}, Reason: "none"})
		},
	} {
		var e *jsonrpc.Error
		if err := call(); !errors.As(err, &e) || e.Code != jsonrpc.CodeMethodNotFound || !strings.Contains(e.Message, "forwarded from another machine") {
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
