package bridge

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// Options are what a Session needs besides its two links.
type Options struct {
	// Info names the session: its ID, the server as configured and when
	// it started. The session fills in the host and what the server
	// reports.
	Info endpoint.Bridged
	// Desk answers elicitations.
	Desk Desk
	// KeepAlive is the time between progress notifications while a
	// person answers; 10 s if zero.
	KeepAlive time.Duration
	// Unshown records an elicitation no window could show, answered
	// cancel or given to the host; may be nil. It runs on the
	// elicitation's goroutine before the answer goes on, so it must
	// return soon.
	Unshown func(endpoint.Unshown)
	// Log is where the session reports; a host shows the bridge's stderr
	// in its MCP logs.
	Log *slog.Logger
}

// Session is one host's conversation with one server through the bridge.
type Session struct {
	host, server link.Link
	opts         Options

	// ctx ends when the session does; every answer in progress uses it.
	ctx   context.Context
	stop  context.CancelCauseFunc
	tasks sync.WaitGroup
	// writeCtx is ctx without its end, for writes: made once, not per message.
	writeCtx context.Context
	// The requests the bridge sends itself, matched with their answers:
	// to the server for a host's call (an input_required retry, a task's
	// update), and to the host (an elicitation no window could show).
	serverCalls *rpc.Calls[*call]
	hostCalls   *rpc.Calls[struct{}]
	// turns keep the server's elicitations in the order it sent them
	// (fromServer's own).
	turns rpc.Turns
	// What each side sent that could not be read, counted by its reader.
	unreadableHost, unreadableServer *rpc.Dropped

	mu        sync.Mutex
	info      endpoint.Bridged
	named     bool                                  // info.Host is set, for good
	hostCan   modes                                 // the elicitation modes the host declared
	calls     map[string]*call                      // host requests the server has not answered, by upstream id
	asked     map[string]context.CancelCauseFunc    // server requests being answered, by id
	urls      map[string]chan struct{}              // URL elicitations of -32042 errors awaiting completion, by elicitationId
	ourURLs   map[string]bool                       // elicitationIds the desk showed
	shown     map[string]float64                    // the last progress the host saw, by token
	busy      map[string]*busyCall                  // host requests the bridge answers for the server, by host id
	kept      map[string]map[string]json.RawMessage // answers for hosts' retries, by requestState
	taskAsks  map[string]*taskAsk                   // task input requests the desk answers, by task id and key
	deskTasks map[string]*deskTask                  // the server's task-augmented elicitations, by task id
	meta      json.RawMessage                       // the protocol _meta of the host's latest 2026-07-28 request, as sent upstream
	nextID    int
}

// call is a host request on its way upstream.
type call struct {
	method string
	req    link.Message    // as sent upstream
	hostID json.RawMessage // the id to answer the host with
	token  json.RawMessage // params._meta.progressToken; nil if none
}

// New returns a session between host and server; Run starts it.
func New(host, server link.Link, opts Options) *Session {
	if opts.KeepAlive <= 0 {
		opts.KeepAlive = 10 * time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &Session{
		host: host, server: server, opts: opts, info: opts.Info,
		calls: map[string]*call{}, asked: map[string]context.CancelCauseFunc{},
		urls: map[string]chan struct{}{}, ourURLs: map[string]bool{}, shown: map[string]float64{},
		busy: map[string]*busyCall{}, kept: map[string]map[string]json.RawMessage{}, taskAsks: map[string]*taskAsk{},
		deskTasks: map[string]*deskTask{}, unreadableHost: rpc.NewDropped(), unreadableServer: rpc.NewDropped(),
	}
}

// ErrHostGone and ErrServerGone say which side ended a session.
var (
	ErrHostGone   = errors.New("the host closed the connection")
	ErrServerGone = errors.New("the server closed the connection")
)

// Run passes messages until either side goes away or ctx ends, then
// closes both links and returns why the session ended. Answers in progress
// end with it: the server's elicitations are answered cancel, the host's
// requests the server will never answer get an error.
func (s *Session) Run(ctx context.Context) error {
	s.ctx, s.stop = context.WithCancelCause(ctx)
	s.writeCtx = context.WithoutCancel(s.ctx)
	defer s.stop(nil)
	// Ids neither peer can guess, each side's from a secret of its own
	// (each peer sees the ids sent to it): no message of theirs is taken
	// for an answer to the bridge.
	s.serverCalls = rpc.NewCalls[*call](s.ctx, s.server, "elicitdesk-"+rand.Text()[:16]+"-")
	s.hostCalls = rpc.NewCalls[struct{}](s.ctx, s.host, "elicitdesk-host-"+rand.Text()[:16]+"-")
	s.opts.Desk.Attach(s.ctx, s.snapshot())
	hostEnded, serverEnded := make(chan error, 1), make(chan error, 1)
	go func() { hostEnded <- s.fromHost() }()
	go func() { serverEnded <- s.fromServer() }()
	var err error
	select {
	case err = <-hostEnded:
	case err = <-serverEnded:
		serverEnded <- err
	case <-s.ctx.Done():
		err = context.Cause(s.ctx)
	}
	s.stop(err)
	s.server.Close()
	<-serverEnded // only its reader starts answers: none starts after this
	if errors.Is(err, ErrServerGone) {
		s.failCalls(err)
	}
	s.tasks.Wait()
	s.host.Close()
	// The reader of a link whose peer never closes (a host's stdin) may
	// stay blocked: the process is about to exit, so it is not waited for.
	return err
}

// snapshot returns what the session knows about itself.
func (s *Session) snapshot() endpoint.Bridged {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.info
}

// spawn runs f as part of the session's work, which Run waits for.
func (s *Session) spawn(f func()) {
	s.tasks.Add(1)
	go func() {
		defer s.tasks.Done()
		f()
	}()
}

// toHost and toServer send one message; a failure means that side is
// going away, which its reader notices. The last answers go out after the
// session's context ended; closing the link ends a write that blocks.
func (s *Session) toHost(m link.Message) {
	if err := s.host.Write(s.writeCtx, m); err != nil && s.ctx.Err() == nil {
		s.opts.Log.Warn("cannot write to the host", "err", err)
	}
}

func (s *Session) toServer(m link.Message) {
	if err := s.server.Write(s.writeCtx, m); err != nil && s.ctx.Err() == nil {
		s.opts.Log.Warn("cannot write to the server", "err", err)
	}
}

// fromHost passes the host's messages upstream until the host goes away.
func (s *Session) fromHost() error {
	defer s.unreadableHost.Ended(s.opts.Log, "messages that could not be read, in all")
	for {
		m, err := s.host.Read()
		if err != nil {
			var bad *link.BadMessage // here, or every message would allocate it
			switch {
			case errors.As(err, &bad):
				s.badFromHost(bad)
				continue
			case errors.Is(err, io.EOF):
				return ErrHostGone
			}
			return fmt.Errorf("%w: %v", ErrHostGone, err)
		}
		switch {
		case m.IsRequest():
			s.hostRequest(m)
		case m.IsResponse() && s.hostCalls.Answer(m):
		case m.Method == "notifications/cancelled" && s.cancelWork(m):
		default:
			s.toServer(m)
		}
	}
}

// fromServer passes the server's messages to the host until the server
// goes away, keeping elicitations for the desk.
func (s *Session) fromServer() error {
	defer s.unreadableServer.Ended(s.opts.Log, "messages that could not be read, in all")
	for {
		m, err := s.server.Read()
		if err != nil {
			var bad *link.BadMessage // here, or every message would allocate it
			switch {
			case errors.As(err, &bad):
				s.badFromServer(bad)
				continue
			case errors.Is(err, io.EOF):
				return ErrServerGone
			}
			return fmt.Errorf("%w: %v", ErrServerGone, err)
		}
		switch {
		case m.IsResponse():
			s.serverResponse(m)
		case m.Method == "elicitation/create" && m.ID != nil:
			ctx, arrived := s.turns.Next(s.ctx) // asked at the desk in the order sent
			if t := s.newDeskTask(ctx, m); t != nil {
				s.spawn(func() { defer arrived(); s.elicitAsTask(m, t) })
			} else {
				s.spawn(func() { defer arrived(); s.elicit(ctx, m) })
			}
		case m.IsRequest() && strings.HasPrefix(m.Method, "tasks/") && s.deskTaskRequest(m):
		case m.Method == "notifications/elicitation/complete" && s.completed(m):
		case m.Method == "notifications/cancelled" && s.cancelAsk(m):
		default:
			switch m.Method {
			case "notifications/progress":
				s.sawProgress(m)
			case "notifications/tasks":
				m = s.taskNotification(m)
			}
			s.toHost(s.relatedToHost(m))
		}
	}
}

// hostRequest declares elicitation in the request where it carries
// capabilities, remembers it, and sends it upstream.
func (s *Session) hostRequest(m link.Message) {
	if m.Method == "tasks/cancel" {
		s.forgetTask(m.Raw)
	}
	raw := m.Raw
	s.mu.Lock()
	switch {
	case m.Method == "initialize":
		s.hostCan = declared(gjson.GetBytes(raw, pathCapabilities))
		s.nameHost(gjson.GetBytes(raw, pathClientInfo))
		raw = s.declare(raw, pathCapabilities)
	case gjson.GetBytes(raw, pathMetaVersion).Exists():
		s.hostCan = declared(gjson.GetBytes(raw, pathMetaCapabilities))
		before := s.info
		s.info.Protocol = gjson.GetBytes(raw, pathMetaVersion).String()
		s.nameHost(gjson.GetBytes(raw, pathMetaClientInfo))
		if s.info != before {
			defer s.opts.Desk.Attach(s.ctx, s.info) // after the message is on its way
		}
		raw = s.declare(raw, pathMetaCapabilities)
		raw = s.mergeAnswers(raw)
		s.meta = protocolMeta(raw)
	}
	c := &call{method: m.Method, hostID: m.ID, token: rawOrNil(gjson.GetBytes(raw, pathProgress))}
	up := link.Message{Raw: raw, ID: m.ID, Method: m.Method}
	key := m.Key()
	if _, ours := s.serverCalls.About(key); ours || s.calls[key] != nil {
		// The id is one of the bridge's own, or reused while pending:
		// the server sees a fresh one, the host gets its own back.
		up.ID = s.newID()
		up.Raw = withID(up.Raw, up.ID)
		key = up.Key()
	}
	c.req = up
	s.calls[key] = c
	s.mu.Unlock()
	s.toServer(up)
}

// nameHost takes the host's clientInfo as the name the windows give it
// ("for Claude Desktop"), the first time the host gives one: a later
// initialize or request of the session cannot rename the host the person
// has been answering for. s.mu is held.
func (s *Session) nameHost(info gjson.Result) {
	if s.named || !info.Exists() {
		return
	}
	s.info.Host, s.named = peer(info), true
}

// declare sets the elicitation capability at path; s.mu is held.
func (s *Session) declare(raw json.RawMessage, path string) json.RawMessage {
	out, err := declareElicitation(raw, path)
	if err != nil {
		s.opts.Log.Warn("cannot declare elicitation in the host's request; passed on as sent", "err", err)
		return raw
	}
	return out
}

func rawOrNil(r gjson.Result) json.RawMessage {
	if !r.Exists() {
		return nil
	}
	return json.RawMessage(r.Raw)
}

// newID returns an id for a host's request in place of its own that no
// request in flight uses; s.mu is held.
func (s *Session) newID() json.RawMessage {
	for {
		s.nextID++
		id := json.RawMessage(fmt.Sprintf(`"elicitdesk-%d"`, s.nextID))
		key := link.IDKey(id)
		if s.calls[key] == nil && s.busy[key] == nil {
			return id
		}
	}
}

// serverResponse hands a response to whoever waits for it: the bridge's
// own request, or the host, unless the bridge answers for the server.
func (s *Session) serverResponse(m link.Message) {
	if s.serverCalls.Answer(m) {
		return
	}
	key := m.Answers()
	s.mu.Lock()
	c := s.calls[key]
	delete(s.calls, key)
	introduced := c != nil && (c.method == "initialize" || c.method == "server/discover")
	if introduced {
		info := gjson.GetBytes(m.Raw, "result.serverInfo")
		if !info.Exists() { // 2026-07-28 says it in every result's _meta
			info = gjson.GetBytes(m.Raw, pathResultServerInfo)
		}
		s.info.Reported = peer(info)
		if v := gjson.GetBytes(m.Raw, "result.protocolVersion"); v.Exists() {
			s.info.Protocol = v.String()
		}
	}
	s.mu.Unlock()
	if c == nil {
		s.opts.Log.Warn("the server answered a request nobody sent; dropped", "id", string(m.ID))
		return
	}
	switch {
	case introduced:
		s.opts.Desk.Attach(s.ctx, s.snapshot())
	case needsInput(m):
		s.spawn(func() { s.answerInputs(c, m) })
		return
	case urlRequired(m):
		s.spawn(func() { s.answerURLRequired(c, m) })
		return
	case c.method == "tasks/get":
		m = s.taskInputs(c, m, "result", protocolMeta(c.req.Raw))
	}
	s.toHost(s.forHost(c, m))
}

// forHost returns the server's answer to c with the host's id.
func (s *Session) forHost(c *call, m link.Message) link.Message {
	if c.token != nil {
		s.mu.Lock()
		delete(s.shown, link.IDKey(c.token))
		s.mu.Unlock()
	}
	// A null id stays null: its stream says whose it is. Equal bytes are
	// the same id, the common case, without making keys.
	if m.ID != nil && !bytes.Equal(c.hostID, m.ID) && link.IDKey(c.hostID) != m.Key() {
		m.Raw, m.ID = withID(m.Raw, c.hostID), c.hostID
	}
	m.Related = c.hostID
	return m
}

// relatedToHost maps a message's related request from the id the server
// saw to the host's.
func (s *Session) relatedToHost(m link.Message) link.Message {
	if m.Related == nil {
		return m
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := link.IDKey(m.Related)
	if c := s.calls[key]; c != nil {
		m.Related = c.hostID
	} else if c, ok := s.serverCalls.About(key); ok {
		m.Related = c.hostID
	}
	return m
}

// failCalls answers every request the server will not: it went away.
func (s *Session) failCalls(cause error) {
	s.mu.Lock()
	calls := s.calls
	s.calls = map[string]*call{}
	for key, b := range s.busy { // their work ends with the session, unanswered
		calls["busy "+key] = b.call
	}
	s.busy = map[string]*busyCall{}
	s.mu.Unlock()
	for _, c := range calls {
		s.toHost(failure(c.hostID, &jsonrpc.Error{Code: jsonrpc.CodeServer, Message: cause.Error() + " before answering"}))
	}
}
