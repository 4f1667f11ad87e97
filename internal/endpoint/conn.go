package endpoint

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/lines"
)

// writeTimeout bounds writing one message: a peer that reads nothing for
// that long is dropped rather than holding its requests' goroutines.
const writeTimeout = 10 * time.Second

// errProtocol ends a connection whose peer broke the protocol; it has been
// told why.
var errProtocol = errors.New("protocol error")

// nullID is the id of a response to a message whose id could not be read:
// such an error is about the connection, not one request.
const nullID = "null"

// conn is one peer's connection to the server.
type conn struct {
	s      *Server
	c      net.Conn
	ctx    context.Context // ends when the peer is gone or the server closes
	cancel context.CancelFunc

	wmu sync.Mutex // one message written at a time
	w   *lines.Writer

	mu       sync.Mutex
	inflight map[string]context.CancelFunc // by request id
	handlers sync.WaitGroup
}

// serveConn serves one peer of this user until it goes away, breaks the
// protocol or the server closes. A peer that stops sending (half-close)
// still gets the answers under way; one that hangs up entirely has its
// requests cancelled.
func (s *Server) serveConn(c net.Conn) {
	defer c.Close()
	if err := checkPeer(c, s.ln.Addr().String()); err != nil {
		s.log.Warn("endpoint: refused a connection", "err", err)
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	closed := make(chan struct{})
	stop := context.AfterFunc(s.ctx, func() { // Close unblocks the reader
		c.Close()
		close(closed)
	})
	defer func() {
		if !stop() {
			<-closed // so that nothing of ours runs after Close
		}
	}()
	cn := &conn{s: s, c: c, w: lines.NewWriter(c, MaxMessage), ctx: ctx, cancel: cancel, inflight: map[string]context.CancelFunc{}}

	r := lines.NewReader(c, MaxMessage)
	c.SetReadDeadline(time.Now().Add(s.limits.firstMessage))
	if err := cn.hello(r); err != nil {
		s.log.Debug("endpoint: no handshake", "err", err)
		return
	}
	c.SetReadDeadline(time.Time{})
	err := cn.readLoop(r)
	if errors.Is(err, io.EOF) {
		cn.awaitAnswers()
	} else {
		s.log.Debug("endpoint: connection ends", "err", err)
		cancel()
	}
	cn.handlers.Wait()
}

// awaitAnswers lets the requests under way finish after the peer stopped
// sending, unless it hangs up entirely meanwhile.
func (cn *conn) awaitAnswers() {
	ctx, stop := context.WithCancel(cn.ctx)
	var watch sync.WaitGroup
	watch.Go(func() {
		if awaitHangup(ctx, cn.c) {
			cn.cancel()
		}
	})
	cn.handlers.Wait()
	stop()
	watch.Wait()
}

// hello reads the handshake and answers it; an error ends the connection.
func (cn *conn) hello(r *lines.Reader) error {
	m, err := cn.read(r)
	if err != nil {
		return err
	}
	if m.Method != methodHello || m.ID == nil {
		cn.reply(idOrNull(m.ID), nil, errorf(jsonrpc.CodeInvalidRequest, "the first message must be the %s request", methodHello))
		return errProtocol
	}
	var p helloParams
	if err := json.Unmarshal(m.Params, &p); err != nil || p.Version != Version {
		cn.reply(m.ID, nil, errorf(codeVersion, "this Elicit Desk speaks endpoint protocol version %d, not %d: use the same release of elicitdesk as the running app", Version, p.Version))
		return errProtocol
	}
	cn.reply(m.ID, helloParams{Version: Version}, nil)
	return nil
}

// readLoop starts a handler for each request until reading fails.
func (cn *conn) readLoop(r *lines.Reader) error {
	for {
		m, err := cn.read(r)
		if err != nil {
			return err
		}
		switch {
		case m.Method == methodCancelled:
			cn.cancelRequest(m.Params)
		case m.ID != nil:
			cn.start(m)
		default:
			cn.s.notify(m)
		}
	}
}

// read reads one message. A message too large, not JSON or not a
// JSON-RPC request or notification is answered with an error, and the
// connection ends: the peer is not one that speaks this protocol.
func (cn *conn) read(r *lines.Reader) (*message, error) {
	line, err := r.Read()
	if errors.As(err, new(*lines.TooLong)) {
		cn.reply(json.RawMessage(nullID), nil, errorf(codeTooLarge, "message larger than %d bytes", MaxMessage))
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		cn.reply(json.RawMessage(nullID), nil, errorf(jsonrpc.CodeParseError, "not JSON: %v", err))
		return nil, errProtocol
	}
	if m.JSONRPC != "2.0" || m.Method == "" {
		cn.reply(idOrNull(m.ID), nil, errorf(jsonrpc.CodeInvalidRequest, `not a JSON-RPC 2.0 request: needs "jsonrpc":"2.0" and a method`))
		return nil, errProtocol
	}
	return &m, nil
}

// start runs the request m on its own goroutine.
func (cn *conn) start(m *message) {
	key := string(m.ID)
	ctx, cancel := context.WithCancel(cn.ctx)
	cn.mu.Lock()
	_, dup := cn.inflight[key]
	if !dup {
		cn.inflight[key] = cancel
	}
	cn.mu.Unlock()
	if dup {
		cancel()
		cn.reply(m.ID, nil, errorf(jsonrpc.CodeInvalidRequest, "request id %s is already in flight", key))
		return
	}
	cn.handlers.Go(func() {
		result, err := cn.s.dispatch(ctx, m)
		if err != nil && ctx.Err() != nil {
			err = errorf(codeCancelled, "request cancelled")
		}
		cn.mu.Lock()
		delete(cn.inflight, key) // before the reply: the peer may reuse the id then
		cn.mu.Unlock()
		cancel()
		if cn.ctx.Err() != nil {
			// The peer hung up or the app is quitting: the connection is
			// closing, and a peer still reading must see it break, not a
			// refusal of its request.
			return
		}
		cn.reply(m.ID, result, err)
	})
}

// cancelRequest cancels the request that a notifications/cancelled names.
func (cn *conn) cancelRequest(params json.RawMessage) {
	var p cancelledParams
	if json.Unmarshal(params, &p) != nil {
		return
	}
	cn.mu.Lock()
	cancel := cn.inflight[string(p.RequestID)]
	cn.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// reply sends the response to request id: result, or err as a JSON-RPC
// error. An answer over MaxMessage is an error saying so instead. A
// failed write ends the connection, which may hold half a message.
func (cn *conn) reply(id json.RawMessage, result any, err error) {
	line, err := response(id, result, err)
	if err != nil {
		cn.s.log.Error("endpoint: cannot encode a response", "err", err)
		return
	}
	cn.wmu.Lock()
	defer cn.wmu.Unlock()
	cn.c.SetWriteDeadline(time.Now().Add(writeTimeout))
	_, err = cn.w.Write(line)
	if long := (*lines.TooLong)(nil); errors.As(err, &long) {
		line, _ = response(id, nil, errorf(codeTooLarge, "the answer is %d bytes; at most %d go in one message", long.Size, long.Max))
		_, err = cn.w.Write(line)
	}
	if err != nil {
		cn.s.log.Debug("endpoint: cannot answer", "err", err)
		cn.c.Close()
	}
}

// response encodes the response to request id: result, or err as a
// JSON-RPC error, jsonrpc.CodeServer unless it is one.
func response(id json.RawMessage, result any, err error) ([]byte, error) {
	m := &message{ID: id}
	if err == nil {
		m.Result, err = marshal(result)
	}
	if err != nil {
		e := jsonrpc.As(err)
		if e == nil {
			e = &jsonrpc.Error{Code: jsonrpc.CodeServer, Message: err.Error()}
		}
		m.Result, m.Error = nil, e
	}
	return encode(m)
}

// idOrNull is id, or null when the message had none.
func idOrNull(id json.RawMessage) json.RawMessage {
	if id == nil {
		return json.RawMessage(nullID)
	}
	return id
}
