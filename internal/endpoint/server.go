package endpoint

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"
)

// limits bound what peers may take of the server.
type limits struct {
	// conns bounds the connections served at once. Each is a file
	// descriptor and two goroutines; the bound must leave room for the
	// bridge's long-lived connections, one per proxied server.
	conns int
	// firstMessage is how long a new connection may take to say hello.
	firstMessage time.Duration
}

// defaultLimits: 256 connections are far more than the bridges a person's
// MCP hosts start (one per proxied server, tens at most) plus scripts, and
// far fewer than the 1,024 descriptors of the smallest common limit, so the
// app's own files, servers and display keep theirs.
func defaultLimits() limits {
	return limits{conns: 256, firstMessage: 5 * time.Second}
}

// Accept back-off after an error such as EMFILE: doubling up to a second.
// An episode of such errors ends once accepting has worked for
// episodeQuiet, so a server hovering at its limit logs it once.
const (
	minBackoff   = 5 * time.Millisecond
	maxBackoff   = time.Second
	episodeQuiet = 10 * time.Second
)

// Server answers peers on the endpoint until Close.
type Server struct {
	ln     net.Listener // nil when the endpoint could not be made
	lock   io.Closer    // the single-instance lock, given up at Close
	h      Handler
	log    *slog.Logger
	limits limits
	// forwarded: the connections come from another machine, through a
	// forward (ListenForwarded), and may only ask.
	forwarded bool

	ctx   context.Context // ends at Close: every request's parent
	stop  context.CancelFunc
	slots chan struct{} // one per connection served
	wg    sync.WaitGroup

	closeOnce sync.Once
	closeErr  error
}

// serve starts answering on ln with h; the server owns ln and lock (nil
// for none). forwarded: its peers are on another machine.
func serve(ln net.Listener, lock io.Closer, h Handler, log *slog.Logger, l limits, forwarded bool) *Server {
	s := hold(lock)
	s.ln, s.h, s.log, s.limits, s.slots, s.forwarded = ln, h, log, l, make(chan struct{}, l.conns), forwarded
	s.wg.Go(s.acceptLoop)
	return s
}

// hold is a server that serves nothing and keeps lock until Close.
func hold(lock io.Closer) *Server {
	ctx, stop := context.WithCancel(context.Background())
	return &Server{lock: lock, ctx: ctx, stop: stop}
}

// acceptLoop accepts connections while a slot is free, and goes on after
// errors such as running out of file descriptors: it backs off, logs once
// per episode and logs again when the episode is over.
func (s *Server) acceptLoop() {
	var (
		delay    time.Duration // back-off after failures in a row
		failed   time.Time     // when accepting last failed
		failures int           // in the episode under way; 0 outside one
	)
	for {
		select {
		case s.slots <- struct{}{}:
		case <-s.ctx.Done():
			return
		}
		c, err := s.ln.Accept()
		if err != nil {
			<-s.slots
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if failures == 0 {
				s.log.Warn("endpoint: cannot accept connections; retrying", "err", err)
			}
			failures++
			failed = time.Now()
			delay = min(max(2*delay, minBackoff), maxBackoff)
			if !s.sleep(delay) {
				return
			}
			continue
		}
		delay = 0
		if failures > 0 && time.Since(failed) > episodeQuiet {
			s.log.Info("endpoint: accepting connections again", "failures", failures)
			failures = 0
		}
		s.wg.Go(func() {
			defer func() { <-s.slots }()
			s.serveConn(c)
		})
	}
}

// sleep waits for d, or reports false when the server closes first.
func (s *Server) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-s.ctx.Done():
		return false
	}
}

// Close stops listening, cancels the requests under way, closes every
// connection and waits until all of the server's goroutines have ended,
// then removes the endpoint and gives up the lock so a new app can start.
func (s *Server) Close() error {
	if s == nil { // Listen failed: nothing to close
		return nil
	}
	s.closeOnce.Do(func() {
		s.stop()
		var err error
		if s.ln != nil {
			err = s.ln.Close()
		}
		s.wg.Wait()
		if s.lock != nil {
			err = errors.Join(err, s.lock.Close())
		}
		s.closeErr = err
	})
	return s.closeErr
}
