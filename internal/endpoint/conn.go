package endpoint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// errProtocol ends a connection whose peer broke the protocol; it has been
// told why.
var errProtocol = errors.New("protocol error")

// serveConn serves one peer of this user with an rpc.Peer until the peer
// goes away, breaks the protocol or the server closes. Its requests'
// contexts end then: a peer that stops sending has hung up, as on stdio.
func (s *Server) serveConn(c net.Conn) {
	defer c.Close()
	if err := checkPeer(c, s.ln.Addr().String()); err != nil {
		s.log.Warn("endpoint: refused a connection", "err", err)
		return
	}
	sc := &served{wire: newWire(c)}
	closed := make(chan struct{})
	stop := context.AfterFunc(s.ctx, func() { // Close unblocks the reader
		sc.Close()
		close(closed)
	})
	defer func() {
		if !stop() {
			<-closed // so that nothing of ours runs after Close
		}
	}()
	c.SetReadDeadline(time.Now().Add(s.limits.firstMessage))
	if err := sc.hello(); err != nil {
		s.log.Debug("endpoint: no handshake", "err", err)
		return
	}
	c.SetReadDeadline(time.Time{})
	var p *rpc.Peer
	made := make(chan struct{}) // p is set: it reads from the start
	request := func(ctx context.Context, req rpc.Request) (json.RawMessage, error) {
		<-made
		return s.request(ctx, p, req)
	}
	// A bridge's elicitations reach the person in the order it sent them.
	p = rpc.New(sc, rpc.Options{Request: request, Ordered: map[string]bool{methodElicit: true}, Notification: s.notify, Log: s.log})
	close(made)
	<-p.Done()
	s.log.Debug("endpoint: connection ends", "err", p.Err())
	p.Close()
}

// served is a peer's connection as the server sees it: the handshake is
// read before the rpc.Peer starts, a message that cannot be read is
// answered and ends the connection (the peer does not speak the protocol),
// and an answer over MaxMessage becomes an error saying so.
type served struct{ *wire }

// hello reads the handshake and answers it; an error ends the connection.
func (sc *served) hello() error {
	m, err := sc.Read()
	if err != nil {
		return err
	}
	var hello struct {
		Params helloParams `json:"params"`
	}
	switch {
	case !m.IsRequest() || m.Method != methodHello:
		sc.refuse(m.ID, errorf(jsonrpc.CodeInvalidRequest, "the first message must be the %s request", methodHello))
		return errProtocol
	case json.Unmarshal(m.Raw, &hello) != nil || hello.Params.Version != Version:
		sc.refuse(m.ID, errorf(codeVersion, "%s", mismatch(ours(), hello.Params)))
		return errProtocol
	}
	res, _ := rpc.Marshal(ours())
	return sc.Write(context.Background(), rpc.Response(m.ID, res, nil))
}

// Read returns the peer's next message. One that cannot be read is
// answered and ends the connection with errProtocol, not a
// *link.BadMessage, after which the peer would read on.
func (sc *served) Read() (link.Message, error) {
	m, err := sc.wire.Read()
	var bad *link.BadMessage
	if !errors.As(err, &bad) {
		return m, err
	}
	if errors.Is(bad.Err, link.ErrTooLarge) {
		sc.refuse(bad.ID, errorf(codeTooLarge, "message larger than %d bytes", MaxMessage))
	} else {
		sc.refuse(bad.ID, errorf(jsonrpc.CodeParseError, "not a JSON-RPC message: %v", bad.Err))
	}
	return link.Message{}, fmt.Errorf("%w: %w", errProtocol, bad.Err)
}

// Write sends m; an answer over MaxMessage goes as an error saying so.
func (sc *served) Write(ctx context.Context, m link.Message) error {
	if len(m.Raw) > MaxMessage && m.IsResponse() {
		m = rpc.Response(m.ID, nil, errorf(codeTooLarge, "the answer is %d bytes; at most %d go in one message", len(m.Raw), MaxMessage))
	}
	return sc.wire.Write(ctx, m)
}

// refuse answers the message with id (nil when it had none or it could
// not be read: the error is about the connection) with e.
func (sc *served) refuse(id json.RawMessage, e *jsonrpc.Error) {
	sc.wire.Write(context.Background(), rpc.Response(id, nil, e))
}
