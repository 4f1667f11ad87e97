package cli

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/deskclient"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/bridge"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// deskAsker answers the elicitations of a server that call runs itself
// (-answer desk with a command or -url) in the app's windows, as the
// bridge answers a host's server's: the app is started if need be, the
// session is listed in its Servers window while the call runs, and the
// questions reach it in the order the server asked them.
type deskAsker struct {
	desk       *deskclient.Desk
	life       context.Context    // the call's: the listing, and a link's completion passed on, until close
	end        context.CancelFunc // ends life
	stderr     terminal
	unanswered *atomic.Int32
	asking     sync.WaitGroup // the questions at the app, and the completions passed on

	mu      sync.Mutex
	session endpoint.Bridged // who asks, as the app shows and records it
	turns   rpc.Turns        // in the order the router admits them
}

// newDeskAsker asks at desk on behalf of server, which runs target, until
// close.
func newDeskAsker(desk *deskclient.Desk, server, target string, stderr terminal, unanswered *atomic.Int32) *deskAsker {
	life, end := context.WithCancel(context.Background())
	return &deskAsker{desk: desk, life: life, end: end, stderr: stderr, unanswered: unanswered,
		session: endpoint.Bridged{ID: rand.Text(), Server: server, Target: target, Host: endpoint.Peer{Name: "elicitdesk call"}, Since: time.Now()}}
}

// connected lists the session in the app, with what the server says of
// itself, once it is connected.
func (a *deskAsker) connected(conn *servers.Conn) {
	who := conn.Identity().Reported
	a.mu.Lock()
	a.session.Reported = endpoint.Peer{Name: who.Name, Title: who.Title, Version: who.Version}
	a.session.Protocol = conn.ProtocolVersion()
	s := a.session
	a.mu.Unlock()
	a.desk.Attach(a.life, s)
}

// ask is the router's OnAsked: it passes e to the app and answers the
// server with the person's answer, without holding back the next request.
func (a *deskAsker) ask(e *servers.Elicitation) {
	describe(e, a.stderr)
	a.stderr.Linef("  asking in Elicit Desk's windows")
	a.mu.Lock()
	ctx, arrived := a.turns.Next(e.Context())
	q := endpoint.Question{Session: a.session, Params: e.Params}
	a.mu.Unlock()
	a.asking.Add(1)
	go func() {
		defer a.asking.Done()
		defer arrived()
		if e.Mode == servers.ModeURL && e.URLID != "" {
			a.asking.Add(1)
			go a.passCompletion(e, q.Session)
		}
		asking, stop := askingContext(ctx)
		defer stop()
		raw, err := a.desk.Ask(rpc.InTurn(asking), q)
		var res forms.Result
		if err == nil {
			if err = json.Unmarshal(raw, &res); err != nil {
				err = errors.New("the app's answer is not an elicitation result: " + err.Error())
			}
		}
		a.answer(e, res, err)
	}()
}

// askingContext is ctx for a question at the app, which ends when ctx
// does: the server's cancel goes on in the words the app reads as the
// server's own, as the bridge says it, not as a bridge's reason.
func askingContext(ctx context.Context) (context.Context, func()) {
	asking, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() {
		cause := context.Cause(ctx)
		var said *rpc.Cancelled
		switch {
		case errors.As(cause, &said) && said.Reason != "":
			cause = fmt.Errorf("%s: %s", endpoint.ServerCancelled, said.Reason)
		case errors.Is(cause, rpc.ErrCancelled):
			cause = errors.New(endpoint.ServerCancelled)
		}
		cancel(cause)
	})
	return asking, func() { stop(); cancel(nil) }
}

// answer gives the server the person's answer to e, or, where the app
// could not ask, says why: cancel where no window could show it (nobody
// could be asked, as the bridge answers then), else the app's refusal or
// an error, which a cancel would pass off as the person's.
func (a *deskAsker) answer(e *servers.Elicitation, res forms.Result, err error) {
	if e.Context().Err() != nil {
		a.stderr.Linef("elicitation %s: withdrawn before an answer: %s", e.ID, context.Cause(e.Context()))
		return
	}
	var sent error
	switch refused := jsonrpc.As(err); {
	case err == nil:
		sent = e.Reply(res)
	case errors.Is(err, bridge.ErrNoWindow):
		a.stderr.Linef("elicitation %s: cannot be asked in Elicit Desk, cancelling: %s", e.ID, err)
		a.unanswered.Add(1)
		res = forms.Result{Action: forms.Cancel}
		sent = e.Reply(res)
	case refused != nil:
		a.stderr.Linef("elicitation %s: Elicit Desk refused it; the server gets its error: %s", e.ID, refused.Message)
		a.unanswered.Add(1)
		sent = e.Refuse(refused)
	default:
		a.stderr.Linef("elicitation %s: cannot be asked in Elicit Desk; the server gets an error: %s", e.ID, err)
		a.unanswered.Add(1)
		sent = e.Refuse(&jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: "the elicitation could not be asked in Elicit Desk: " + err.Error()})
	}
	switch {
	case sent != nil:
		a.stderr.Linef("elicitation %s: not sent: %s", e.ID, sent)
	case err == nil || errors.Is(err, bridge.ErrNoWindow):
		b, _ := json.Marshal(res)
		a.stderr.Linef("elicitation %s: answered %s", e.ID, json.RawMessage(b))
	}
}

// passCompletion tells the app when the server says a link request of
// its is over, after the person's answer too, so that its window closes
// as a configured server's does.
func (a *deskAsker) passCompletion(e *servers.Elicitation, s endpoint.Bridged) {
	defer a.asking.Done()
	select {
	case <-e.Completed():
	case <-a.life.Done():
		select {
		case <-e.Completed(): // came before the connection closed
		default:
			return
		}
	}
	a.desk.Complete(endpoint.Completion{Session: s.ID, Server: s.Server, ElicitationID: e.URLID})
}

// close ends the asking once the connection closed, which ended the
// questions still at the app: it waits for them to say so, and for the
// completions that came to reach the app, before the session's listing
// ends with the call.
func (a *deskAsker) close() {
	a.end()
	a.asking.Wait()
}
