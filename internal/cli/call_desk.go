package cli

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/deskclient"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// deskAsker answers the elicitations of a server that call runs itself
// (-answer desk with a command or -url) in the app's windows, as the
// bridge answers a host's server's: the app is started if need be, and
// the questions reach it in the order the server asked them.
type deskAsker struct {
	desk       *deskclient.Desk
	session    endpoint.Bridged // who asks, as the app shows and records it
	life       context.Context  // the call's: a link's completion is passed on until it ends
	stderr     terminal
	unanswered *atomic.Int32

	mu    sync.Mutex
	turns rpc.Turns // in the order the router admits them
}

// newDeskAsker asks at desk on behalf of server, which runs target, for
// as long as life lasts.
func newDeskAsker(life context.Context, desk *deskclient.Desk, server, target string, stderr terminal, unanswered *atomic.Int32) *deskAsker {
	return &deskAsker{desk: desk, life: life, stderr: stderr, unanswered: unanswered,
		session: endpoint.Bridged{ID: rand.Text(), Server: server, Target: target, Host: endpoint.Peer{Name: "elicitdesk call"}, Since: time.Now()}}
}

// ask is the router's OnAsked: it passes e to the app and answers the
// server with the person's answer, without holding back the next request.
func (a *deskAsker) ask(e *servers.Elicitation) {
	describe(e, a.stderr)
	a.stderr.Linef("  asking in Elicit Desk's windows")
	a.mu.Lock()
	ctx, arrived := a.turns.Next(e.Context())
	a.mu.Unlock()
	q := endpoint.Question{Session: a.session, Params: e.Params}
	q.Session.Reported = endpoint.Peer{Name: e.Server.Reported.Name, Title: e.Server.Reported.Title, Version: e.Server.Reported.Version}
	go func() {
		defer arrived()
		if e.Mode == servers.ModeURL && e.URLID != "" {
			go a.passCompletion(e)
		}
		res, err := a.answer(rpc.InTurn(ctx), q)
		if ctx.Err() != nil {
			return // the server cancelled, or the call ended: nobody waits
		}
		if err != nil {
			a.stderr.Linef("elicitation %s: cannot be asked in Elicit Desk, cancelling: %s", e.ID, err)
			res = forms.Result{Action: forms.Cancel}
			a.unanswered.Add(1)
		}
		if err := e.Reply(res); err != nil {
			a.stderr.Linef("elicitation %s: not sent: %s", e.ID, err)
			return
		}
		sent, _ := json.Marshal(res)
		a.stderr.Linef("elicitation %s: answered %s", e.ID, json.RawMessage(sent))
	}()
}

// answer asks q in the app's windows and reads the person's answer.
func (a *deskAsker) answer(ctx context.Context, q endpoint.Question) (forms.Result, error) {
	raw, err := a.desk.Ask(ctx, q)
	if err != nil {
		return forms.Result{}, err
	}
	var res forms.Result
	if err := json.Unmarshal(raw, &res); err != nil {
		return forms.Result{}, errors.New("the app's answer is not an elicitation result: " + err.Error())
	}
	return res, nil
}

// passCompletion tells the app when the server says a link request of
// its is over, after the person's answer too, so that its window closes
// as a configured server's does.
func (a *deskAsker) passCompletion(e *servers.Elicitation) {
	select {
	case <-e.Completed():
		a.desk.Complete(endpoint.Completion{Session: a.session.ID, Server: a.session.Server, ElicitationID: e.URLID})
	case <-a.life.Done():
	}
}
