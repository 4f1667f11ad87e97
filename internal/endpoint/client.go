package endpoint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/lines"
)

// cancelWait bounds telling the app that a call was given up on.
const cancelWait = time.Second

// ErrNotRunning means no Elicit Desk serves the endpoint.
var ErrNotRunning = errors.New("no Elicit Desk app is running")

// ErrDisconnected means the connection to the app ended while a call
// waited or before it was sent: the app quit, crashed or hung up. It is
// never a *jsonrpc.Error, which is the app's own refusal.
var ErrDisconnected = errors.New("the connection to Elicit Desk ended")

// handshakeWait bounds the handshake: the app answers it at once.
const handshakeWait = 5 * time.Second

// Client is a connection to the running app. Its methods may be called
// from several goroutines at once; each call is a request of its own.
type Client struct {
	c   net.Conn
	wmu sync.Mutex // one message written at a time
	w   *lines.Writer

	mu      sync.Mutex
	pending map[string]chan *message // by request id
	nextID  uint64

	done chan struct{} // closed when the reader has ended
	err  error         // why it ended; read after done
}

// Dial connects to the app serving at path. Before sending anything it
// checks that the endpoint (a socket's directory and file; a pipe) and the
// process serving it are this user's, and refuses with an error wrapping
// ErrNotPrivate otherwise; ErrNotRunning says no app listens there.
func Dial(ctx context.Context, path string) (*Client, error) {
	nc, err := dialAt(ctx, path)
	if err != nil {
		return nil, err
	}
	c := &Client{c: nc, w: lines.NewWriter(nc, MaxMessage), pending: map[string]chan *message{}, done: make(chan struct{})}
	go c.readLoop()
	hctx, cancel := context.WithTimeout(ctx, handshakeWait)
	defer cancel()
	var hello helloParams
	err = c.call(hctx, methodHello, helloParams{Version: Version}, &hello)
	if err == nil && hello.Version != Version {
		err = fmt.Errorf("it speaks endpoint protocol version %d, not %d: use the same release of elicitdesk as the running app", hello.Version, Version)
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("the app at %s: %w", path, err)
	}
	return c, nil
}

// Front asks the app to bring its windows to the front.
func (c *Client) Front(ctx context.Context) error {
	return c.call(ctx, methodFront, nil, nil)
}

// CallTool asks the app to call a tool on its connection to call.Server
// and returns the CallToolResult as JSON. It waits as long as ctx allows:
// people may take minutes to answer. When ctx ends first, the app is told
// to cancel the call.
func (c *Client) CallTool(ctx context.Context, call ToolCall) (json.RawMessage, error) {
	var res json.RawMessage
	err := c.call(ctx, methodCallTool, call, &res)
	return res, err
}

// Servers asks the app where each configured server's connection stands.
func (c *Client) Servers(ctx context.Context) ([]ServerStatus, error) {
	var list []ServerStatus
	err := c.call(ctx, methodServers, nil, &list)
	return list, err
}

// Elicit asks the person q's elicitation in the app's windows and returns
// the ElicitResult to send to the server, as JSON. It waits as long as ctx
// allows; when ctx ends first, the app is told to cancel, and its window
// goes stale. A *jsonrpc.Error is the app's refusal, with the code,
// message and data to send to the server; an error wrapping
// ErrDisconnected says the app went away.
func (c *Client) Elicit(ctx context.Context, q Question) (json.RawMessage, error) {
	var res json.RawMessage
	err := c.call(ctx, methodElicit, q, &res)
	return res, err
}

// Unshown hands the app an elicitation no window could show, for its
// history. nil means the app has taken it; an error that it has not (a
// *jsonrpc.Error with jsonrpc.CodeMethodNotFound from an app of an older
// release), and the caller keeps it itself.
func (c *Client) Unshown(ctx context.Context, u Unshown) error {
	return c.call(ctx, methodUnshown, u, nil)
}

// Bridge has the app list session s until ctx ends, and returns then
// (with ctx's cause, after telling the app) or when the connection breaks
// (an error wrapping ErrDisconnected).
func (c *Client) Bridge(ctx context.Context, s Bridged) error {
	return c.call(ctx, methodBridge, s, nil)
}

// Complete passes on a bridged server's notifications/elicitation/complete.
// It is a notification: nil means it was sent, not that an open request
// matched; an error wrapping ErrDisconnected says the app went away.
func (c *Client) Complete(ctx context.Context, completion Completion) error {
	return c.send(ctx, &message{Method: methodComplete}, completion)
}

// CallUI calls a method of the windows' process, "ui/…", and decodes its
// result into result when not nil.
func (c *Client) CallUI(ctx context.Context, method string, params, result any) error {
	if !strings.HasPrefix(method, uiPrefix) {
		return fmt.Errorf("%q is not a method of the windows' process", method)
	}
	return c.call(ctx, method, params, result)
}

// Close hangs up, which cancels the calls under way in the app, and waits
// for the reader to end.
func (c *Client) Close() error {
	err := c.c.Close()
	<-c.done
	return err
}

// call sends a request and waits for its response, decoded into result
// when not nil.
func (c *Client) call(ctx context.Context, method string, params, result any) error {
	c.mu.Lock()
	c.nextID++
	id := json.RawMessage(strconv.FormatUint(c.nextID, 10))
	answer := make(chan *message, 1)
	c.pending[string(id)] = answer
	c.mu.Unlock()
	defer c.forget(id)

	if err := c.send(ctx, &message{ID: id, Method: method}, params); err != nil {
		return err
	}
	select {
	case m := <-answer:
		if m.Error != nil {
			return m.Error
		}
		if result == nil {
			return nil
		}
		return json.Unmarshal(m.Result, result)
	case <-ctx.Done():
		// Best effort: an app that does not read gets no more of our time.
		tell, cancel := context.WithTimeout(context.Background(), cancelWait)
		c.send(tell, &message{Method: methodCancelled}, cancelledParams{RequestID: id})
		cancel()
		return context.Cause(ctx)
	case <-c.done:
		return c.err
	}
}

// gone is the error of a connection that ended: err, wrapped with
// ErrDisconnected so callers tell it from the app's refusal.
func gone(err error) error {
	return fmt.Errorf("%w: %w", ErrDisconnected, err)
}

// forget drops the waiting for the response to id.
func (c *Client) forget(id json.RawMessage) {
	c.mu.Lock()
	delete(c.pending, string(id))
	c.mu.Unlock()
}

// send writes m with params. A message over MaxMessage is refused before
// anything is written. When ctx ends during the write, the write stops; a
// message cut short breaks the framing for every call, so the connection
// is closed then.
func (c *Client) send(ctx context.Context, m *message, params any) error {
	if params != nil {
		p, err := marshal(params)
		if err != nil {
			return err
		}
		m.Params = p
	}
	line, err := encode(m)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	interrupted := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(interrupted)
		c.c.SetWriteDeadline(time.Now())
	})
	n, err := c.w.Write(line)
	if !stop() {
		<-interrupted
		c.c.SetWriteDeadline(time.Time{})
	}
	var long *lines.TooLong
	switch {
	case err == nil:
		return nil
	case errors.As(err, &long):
		return fmt.Errorf("the request is %d bytes; the app takes at most %d", long.Size, long.Max)
	case n > 0:
		c.c.Close()
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return gone(err)
}

// readLoop hands each response to the call waiting for it, until the
// connection ends.
func (c *Client) readLoop() {
	defer close(c.done)
	r := lines.NewReader(c.c, MaxMessage)
	for {
		line, err := r.Read()
		if err != nil {
			c.err = gone(fmt.Errorf("the app gave no answer: %w", err))
			return
		}
		var m message
		if err := json.Unmarshal(line, &m); err != nil || m.ID == nil {
			c.err = gone(errors.New("the app sent something that is not a JSON-RPC response"))
			return
		}
		c.mu.Lock()
		answer := c.pending[string(m.ID)]
		delete(c.pending, string(m.ID)) // one response per request
		c.mu.Unlock()
		switch {
		case answer != nil:
			answer <- &m
		case m.Error != nil && string(m.ID) == nullID:
			// About the connection, not one call: not a refusal.
			c.err = gone(errors.New(m.Error.Message))
			return
		}
		// Else the answer to a call given up on: dropped.
	}
}
