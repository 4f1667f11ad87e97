// Package control lets scripts reach the running app: `elicitdesk call
// -answer desk` asks the app to call a tool on one of its connections, so
// the elicitations the call raises are answered by a person in the app's
// windows. One JSON request per connection, one JSON response.
package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"

	"github.com/adrg/xdg"
)

// Request asks the app to call a tool of a configured server.
type Request struct {
	Server    string         `json:"server"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments,omitempty"`
}

// Response is the tool's result, or why there is none.
type Response struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// maxRequest bounds what a client may send; tool arguments are small.
const maxRequest = 1 << 20

// DefaultPath is the socket under $XDG_RUNTIME_DIR, which only its user
// can reach.
func DefaultPath() string { return filepath.Join(xdg.RuntimeDir, "elicitdesk-control.sock") }

// Server answers requests on a Unix socket until Close.
type Server struct {
	ln   net.Listener
	wg   sync.WaitGroup
	stop context.CancelFunc
}

// Serve listens at path, replacing a socket file left behind, and calls
// handle for each request on its own goroutine. The single-instance lock
// is what makes replacing safe: only the one running app gets here.
func Serve(ctx context.Context, path string, handle func(context.Context, Request) Response, log *slog.Logger) (*Server, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	os.Chmod(path, 0o600)
	ctx, stop := context.WithCancel(ctx)
	s := &Server{ln: ln, stop: stop}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.serve(ctx, c, handle, log)
			}()
		}
	}()
	return s, nil
}

func (s *Server) serve(ctx context.Context, c net.Conn, handle func(context.Context, Request) Response, log *slog.Logger) {
	defer c.Close()
	var req Request
	if err := json.NewDecoder(io.LimitReader(c, maxRequest)).Decode(&req); err != nil {
		json.NewEncoder(c).Encode(Response{Error: "bad request: " + err.Error()})
		return
	}
	// The call ends when the client goes away: it wanted the result.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		io.Copy(io.Discard, c)
		cancel()
	}()
	log.Info("tool call from a script", "server", req.Server, "tool", req.Tool)
	json.NewEncoder(c).Encode(handle(ctx, req))
}

// Close stops listening and waits for calls under way to end.
func (s *Server) Close() error {
	s.stop()
	err := s.ln.Close()
	s.wg.Wait()
	return err
}

// ErrNotRunning means no app listens at the socket.
var ErrNotRunning = errors.New("Elicit Desk is not running")

// Call sends req to the app listening at path and waits, as long as ctx
// allows, for the tool's result: people may take minutes to answer.
func Call(ctx context.Context, path string, req Request) (json.RawMessage, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNotRunning, err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if err := json.NewEncoder(c).Encode(req); err != nil {
		return nil, err
	}
	var resp Response
	if err := json.NewDecoder(c).Decode(&resp); err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, fmt.Errorf("the app gave no answer: %w", err)
	}
	if resp.Error != "" {
		return nil, errors.New(resp.Error)
	}
	return resp.Result, nil
}
