package link

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// commitDelay is how long a POST's event stream waits for its first
// message before it starts without one.
const commitDelay = time.Second

// maxQueue bounds the server messages a host session holds while the host
// has no stream open to take them.
const maxQueue = 256

// ErrSessionGone is Write's error once the host ended its session, or the
// Listener or the Link was closed.
var ErrSessionGone = errors.New("the host's session has ended")

// hostSession is the Link of one host session on a Listener: what the host
// POSTs comes out of Read, and Write puts the server's messages on the
// host's streams: a response on the stream of the POST that carried its
// request, a message Related to a pending request on that request's
// stream, anything else on the host's GET stream, or any open stream, or
// in a queue until one opens. The sessionless Link, shared by 2026-07-28
// hosts, drops what belongs to no open request's stream.
type hostSession struct {
	id     string // the Mcp-Session-Id; "" for the sessionless link
	in     *inbox
	forget func() // removes the session from its Listener

	once sync.Once
	done chan struct{}
	wake chan struct{} // signalled when the queue grows

	offered chan struct{} // closed once Accept has returned the session

	mu      sync.Mutex
	pending map[string]*stream // request id (IDKey) → stream of its POST
	get     *stream
	queue   []Message
	claimed bool // one POST is offering the session to Accept

	open      int       // the host's requests being served: POSTs, the GET
	idleSince time.Time // when open last fell to 0
}

// stream is one open response to the host: a POST's or the GET's. out
// is unbuffered, so a message is either taken by the handler or, once
// done is closed, still Write's to place elsewhere: none waits in a
// stream that has ended.
type stream struct {
	out  chan Message
	done chan struct{} // closed when the handler stops writing
}

func newStream() *stream {
	return &stream{out: make(chan Message), done: make(chan struct{})}
}

func newHostSession(id string, forget func()) *hostSession {
	return &hostSession{
		id: id, in: newInbox(), forget: forget,
		done: make(chan struct{}), wake: make(chan struct{}, 1),
		pending:   make(map[string]*stream),
		offered:   make(chan struct{}),
		idleSince: time.Now(),
	}
}

// enter and leave bracket each of the host's requests to s: a session
// with none open for a while may belong to a host that went away.
func (s *hostSession) enter() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.open++
}

func (s *hostSession) leave() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open--; s.open == 0 {
		s.idleSince = time.Now()
	}
}

// idle reports whether s has no request open, and since how long.
func (s *hostSession) idle(now time.Time) (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return now.Sub(s.idleSince), s.open == 0
}

// claimOffer reports whether the caller is the one to offer s to Accept.
func (s *hostSession) claimOffer() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := !s.claimed
	s.claimed = true
	return c
}

// markOffered records that Accept has returned s.
func (s *hostSession) markOffered() { close(s.offered) }

// waitOffered waits until another POST's offer of s was accepted; false
// if it failed, the Listener closed or ctx ended.
func (s *hostSession) waitOffered(ctx context.Context, closed <-chan struct{}) bool {
	select {
	case <-s.offered:
		return true
	case <-s.done:
	case <-closed:
	case <-ctx.Done():
	}
	return false
}

func (s *hostSession) Read() (Message, error) { return s.in.read() }

// Write hands m to the stream it belongs on and returns once that stream
// has it, or once it is queued.
func (s *hostSession) Write(ctx context.Context, m Message) error {
	s.mu.Lock()
	if s.isDone() {
		s.mu.Unlock()
		return ErrSessionGone
	}
	var st *stream
	switch {
	case m.IsResponse():
		st = s.pending[m.Answers()]
	case m.Related != nil:
		st = s.pending[IDKey(m.Related)]
	}
	if st == nil {
		st = s.get
	}
	if st == nil {
		err := s.enqueue(m)
		s.mu.Unlock()
		return err
	}
	s.mu.Unlock()
	select {
	case st.out <- m:
		return nil
	case <-st.done:
		// The host left that stream: the message waits for another.
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.enqueue(m)
	case <-s.done:
		return ErrSessionGone
	case <-ctx.Done():
		return ctx.Err()
	}
}

// enqueue queues m for the next stream to take it. s.mu is held. Without
// a session every message belongs to a request's stream (2026-07-28), so
// one whose request is over has nowhere to go and is dropped.
func (s *hostSession) enqueue(m Message) error {
	if s.id == "" {
		return nil
	}
	if len(s.queue) >= maxQueue {
		return errors.New("the host has no stream open and its queue is full")
	}
	s.queue = append(s.queue, m)
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return nil
}

// writeQueue writes the queued messages with write, putting back those
// it could not write; it reports whether all went.
func (s *hostSession) writeQueue(write func(Message) bool) bool {
	q := s.takeQueue()
	for i, m := range q {
		if !write(m) {
			s.requeue(q[i:])
			return false
		}
	}
	return true
}

// requeue puts ms back at the head of the queue, in order, beyond its
// bound if need be: they were queued once already. Without a session
// there is no other stream for them, and they are dropped.
func (s *hostSession) requeue(ms []Message) {
	if len(ms) == 0 || s.id == "" {
		return
	}
	s.mu.Lock()
	s.queue = append(ms[:len(ms):len(ms)], s.queue...)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// takeQueue returns and empties the queue.
func (s *hostSession) takeQueue() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.queue
	s.queue = nil
	return q
}

func (s *hostSession) isDone() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// end ends the session: its streams close and Read returns io.EOF after
// what the host sent before.
func (s *hostSession) end() {
	s.once.Do(func() {
		close(s.done)
		s.in.end(io.EOF)
	})
}

// Close ends the session; the host's next request with its id gets 404.
func (s *hostSession) Close() error {
	s.end()
	s.forget()
	return nil
}

// servePost answers a POST of the messages ms. Requests get an event
// stream that carries their responses and whatever relates to them, and
// ends once all are answered; a host that accepts only JSON gets the
// responses alone, as JSON. Anything else gets 202 Accepted.
func (s *hostSession) servePost(w http.ResponseWriter, r *http.Request, ms []Message, batch bool) {
	st := newStream()
	defer close(st.done)
	want := make(map[string]bool)
	for _, m := range ms {
		if m.IsRequest() {
			want[m.Key()] = true
		}
	}
	if len(want) > 0 {
		if code, err := s.register(want, st); err != nil {
			writeError(w, code, nil, jsonrpc.CodeInvalidRequest, err.Error())
			return
		}
		defer s.unregister(want, st)
	}
	if s.id != "" {
		w.Header().Set(headerSession, s.id)
	}
	for _, m := range ms {
		if !s.in.put(r.Context(), m, nil) {
			if len(want) == 0 || s.isDone() {
				writeError(w, http.StatusNotFound, nil, jsonrpc.CodeInvalidRequest, ErrSessionGone.Error())
			}
			return
		}
	}
	if len(want) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if !acceptsEvents(r) {
		s.answerJSON(w, r, st, want, batch)
	} else {
		s.streamTo(w, r, st, want)
	}
	if s.id == "" && r.Context().Err() != nil {
		s.cancelled(want)
	}
}

// cancelled tells the server, in the host's stead, that the requests in
// want are cancelled: a host without a session (2026-07-28) cancels a
// request by closing its stream, which a Link can only say with a
// message. The notification is the Listener's, not the host's.
func (s *hostSession) cancelled(want map[string]bool) {
	for k := range want {
		raw := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + k + `,"reason":"the host closed the request's stream"}}`
		m, err := Parse([]byte(raw))
		if err != nil {
			continue
		}
		s.in.put(context.Background(), m, nil)
	}
}

// register puts st down as the stream of the requests in want, refusing
// ids already pending: their answers could not be told apart.
func (s *hostSession) register(want map[string]bool, st *stream) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.isDone() {
		return http.StatusNotFound, ErrSessionGone
	}
	for k := range want {
		if s.pending[k] != nil {
			return http.StatusConflict, errors.New("a request with id " + k + " is already in progress")
		}
	}
	for k := range want {
		s.pending[k] = st
	}
	return 0, nil
}

// unregister forgets st as the stream of the requests in want.
func (s *hostSession) unregister(want map[string]bool, st *stream) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range want {
		if s.pending[k] == st {
			delete(s.pending, k)
		}
	}
}

// streamTo writes the messages for st as an event stream until the
// requests in want are answered (or, with want nil, until the host or the
// session goes), taking queued messages too. A POST's stream starts with
// its first message, so that an error the server gave with an HTTP status
// (a Message's Status) can answer a lone request with that status, as
// revision 2026-07-28 has servers do.
func (s *hostSession) streamTo(w http.ResponseWriter, r *http.Request, st *stream, want map[string]bool) {
	rc := http.NewResponseController(w)
	committed := false
	commit := func() {
		h := w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
		committed = true
		if s.id != "" {
			// The priming event (SEP-1699): a host that loses the stream
			// may come back on GET, where the answers still pending go.
			io.WriteString(w, "id: "+rand.Text()+"\ndata: \n\n")
		}
	}
	if want == nil {
		commit()
		rc.Flush()
	}
	write := func(m Message) bool {
		if !committed && m.Status >= 400 && len(want) == 1 && m.IsResponse() && want[m.Answers()] {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(m.Status)
			w.Write(m.Raw)
			delete(want, m.Answers())
			s.unregister(map[string]bool{m.Answers(): true}, st)
			return true
		}
		if !committed {
			commit()
		}
		_, err := io.WriteString(w, "data: "+string(m.Raw)+"\n\n")
		if err == nil {
			err = rc.Flush()
		}
		if err != nil {
			return false
		}
		if m.IsResponse() && want[m.Answers()] {
			delete(want, m.Answers())
			s.unregister(map[string]bool{m.Answers(): true}, st)
		}
		return true
	}
	if !s.writeQueue(write) {
		return
	}
	// A host waits only so long for headers (Node's fetch five minutes):
	// a stream with nothing to say for a while starts anyway.
	late := time.NewTimer(commitDelay)
	defer late.Stop()
	for want == nil || len(want) > 0 {
		select {
		case <-late.C:
			if !committed {
				commit()
				rc.Flush()
			}
		case m := <-st.out:
			if !write(m) {
				// The host has gone from this stream: m waits for another.
				s.requeue([]Message{m})
				return
			}
		case <-s.wake:
			if !s.writeQueue(write) {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.done:
			if !committed {
				writeError(w, http.StatusNotFound, nil, jsonrpc.CodeInvalidRequest, ErrSessionGone.Error())
			}
			return
		}
	}
}

// answerJSON waits for the responses to the requests in want and writes
// them as JSON, for a host that does not take event streams. Other
// messages for st go back to the queue, for a stream that can carry them.
func (s *hostSession) answerJSON(w http.ResponseWriter, r *http.Request, st *stream, want map[string]bool, batch bool) {
	var out []json.RawMessage
	status := 0
	for len(want) > 0 {
		select {
		case m := <-st.out:
			if m.IsResponse() && want[m.Answers()] {
				delete(want, m.Answers())
				out, status = append(out, m.Raw), m.Status
				continue
			}
			s.mu.Lock()
			s.enqueue(m)
			s.mu.Unlock()
		case <-r.Context().Done():
			return
		case <-s.done:
			writeError(w, http.StatusNotFound, nil, jsonrpc.CodeInvalidRequest, ErrSessionGone.Error())
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if !batch {
		if status >= 400 {
			w.WriteHeader(status)
		}
		w.Write(out[0])
		return
	}
	b, _ := json.Marshal(out)
	w.Write(b)
}

// serveGet keeps the host's standalone stream open for the server's
// messages that belong to no request. There is one at a time.
func (s *hostSession) serveGet(w http.ResponseWriter, r *http.Request) {
	st := newStream()
	defer close(st.done)
	s.mu.Lock()
	if s.get != nil {
		s.mu.Unlock()
		writeError(w, http.StatusConflict, nil, jsonrpc.CodeInvalidRequest, "the session already has a GET stream open")
		return
	}
	s.get = st
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.get = nil
		s.mu.Unlock()
	}()
	w.Header().Set(headerSession, s.id)
	s.streamTo(w, r, st, nil)
}

// acceptsEvents reports whether the request's Accept header takes an
// event stream.
func acceptsEvents(r *http.Request) bool {
	accept := r.Header.Values("Accept")
	if len(accept) == 0 {
		return true
	}
	for _, a := range accept {
		for _, part := range strings.Split(a, ",") {
			mt, _, _ := mime.ParseMediaType(strings.TrimSpace(part))
			if mt == "text/event-stream" || mt == "*/*" || mt == "text/*" {
				return true
			}
		}
	}
	return false
}

// writeError writes a JSON-RPC error response with an HTTP status.
func writeError(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(errorResponse(id, code, msg).Raw)
}
