package app

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

// request is one elicitation from arrival until it is answered or goes
// stale. It belongs to the UI goroutine: every field is read and written
// there.
type request struct {
	*servers.Elicitation
	win   window // nil while the request waits in the tray menu
	ended bool   // answered or stale: nothing more is sent or recorded
	// notifying: a notification was sent and is still wanted.
	notifying bool
	onEnd     func() // the Desk's bookkeeping, once
	onClosed  func() // after its window closed, for links a tool call waits on
	record    func(history.Entry)
}

// window is what a request's window does for its request.
type window interface {
	// show shows the window or raises it; with the keyboard when the
	// person asked for it.
	show(by opener)
	// stale turns the window read-only, saying why.
	stale(reason string)
	// tick updates how long ago the request arrived.
	tick(now time.Time)
	close()
}

// reply sends the person's answer and records it. It reports whether the
// answer went out: a request that went stale in the meantime sends
// nothing.
func (r *request) reply(res forms.Result) bool {
	if r.ended {
		return false
	}
	if err := r.Reply(res); err != nil {
		r.goStale(staleReason(r.Context()))
		return false
	}
	r.end(outcome(res.Action), "", res.Content)
	return true
}

// goStale ends a request the server no longer waits for.
func (r *request) goStale(reason string) {
	if r.ended {
		return
	}
	r.end(history.Stale, reason, nil)
	if r.win != nil {
		r.win.stale(reason)
	}
}

func (r *request) end(o history.Outcome, reason string, content json.RawMessage) {
	r.ended = true
	r.record(entry(r.Elicitation, o, reason, content, time.Now()))
	if r.onEnd != nil {
		r.onEnd()
	}
}

// entry is the history's record of an elicitation.
func entry(e *servers.Elicitation, o history.Outcome, reason string, content json.RawMessage, answered time.Time) history.Entry {
	return history.Entry{
		Server: e.Server, Message: e.Message, Mode: e.Mode, Schema: e.Schema, URL: e.URL,
		Outcome: o, Reason: reason, Content: content, Received: e.Received, Answered: answered,
	}
}

// refusalEntry is the history's record of a request nobody was asked.
func refusalEntry(x servers.Refusal) history.Entry {
	o := history.Error
	if errors.Is(x.Err, servers.ErrRateLimited) {
		o = history.RateLimited
	}
	return history.Entry{
		Server: x.Server, Message: x.Message, Mode: x.Mode, Schema: x.Schema, URL: x.URL,
		Outcome: o, Reason: x.Err.Error(), Received: x.Received, Answered: x.Received,
	}
}

func outcome(a forms.Action) history.Outcome {
	switch a {
	case forms.Accept:
		return history.Accepted
	case forms.Decline:
		return history.Declined
	}
	return history.Cancelled
}

// staleReason says in plain words why a request stopped waiting; the
// server's own words in it are untrusted.
func staleReason(ctx context.Context) string {
	cause := context.Cause(ctx)
	text := ""
	if cause != nil {
		text = strings.ReplaceAll(untrusted.Text(cause.Error()).Block(), "\n", ": ")
	}
	if text == "" {
		return "The request is no longer waiting. Nothing was sent."
	}
	first, size := utf8.DecodeRuneInString(text)
	return string(unicode.ToUpper(first)) + text[size:] + ". Nothing was sent."
}
