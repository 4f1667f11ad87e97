package control

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestCall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.sock")
	s, err := Serve(context.Background(), path, func(_ context.Context, r Request) Response {
		if r.Tool == "fail" {
			return Response{Error: "no such tool"}
		}
		out, _ := json.Marshal(map[string]any{"server": r.Server, "tool": r.Tool, "args": r.Arguments})
		return Response{Result: out}
	}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := Call(context.Background(), path, Request{Server: "demo", Tool: "echo", Arguments: map[string]any{"n": 1.0}})
	if err != nil || string(got) != `{"args":{"n":1},"server":"demo","tool":"echo"}` {
		t.Fatalf("got %s %v", got, err)
	}
	if _, err := Call(context.Background(), path, Request{Tool: "fail"}); err == nil || err.Error() != "no such tool" {
		t.Fatalf("error %v", err)
	}
}

func TestCallWithoutApp(t *testing.T) {
	_, err := Call(context.Background(), filepath.Join(t.TempDir(), "none.sock"), Request{})
	if !errors.Is(err, ErrNotRunning) {
		t.Fatalf("got %v", err)
	}
}

// TestClientLeavingEndsTheCall checks that a script giving up cancels the
// call in the app, so no window waits for an answer nobody reads.
func TestClientLeavingEndsTheCall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.sock")
	ended := make(chan struct{})
	s, err := Serve(context.Background(), path, func(ctx context.Context, _ Request) Response {
		<-ctx.Done()
		close(ended)
		return Response{Error: "cancelled"}
	}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := Call(ctx, path, Request{Tool: "slow"}); err == nil {
		t.Fatal("no error after the deadline")
	}
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the call went on after the client left")
	}
}

func TestBadRequest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.sock")
	s, err := Serve(context.Background(), path, func(context.Context, Request) Response {
		t.Error("handled a bad request")
		return Response{}
	}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "{not json\n")
	var r Response
	if err := json.NewDecoder(c).Decode(&r); err != nil || !strings.HasPrefix(r.Error, "bad request") {
		t.Fatalf("got %+v %v", r, err)
	}
}
