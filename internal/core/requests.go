package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
)

// Request is one elicitation waiting for the person, as a UI is given it.
type Request struct {
	ID       string           `json:"id"` // the core's; unique while it runs
	Server   servers.Identity `json:"server"`
	Params   json.RawMessage  `json:"params"` // elicitation/create's params: a UI checks them again with servers.ParseParams
	Received time.Time        `json:"received"`
	// ByPerson: the person's own tool call raised it (a link of a -32042
	// error): it opens past the window limit, with the keyboard.
	ByPerson bool `json:"byPerson,omitempty"`
}

// ErrNotWaiting is Answer's error for a request that is not pending: it
// went stale, or another UI answered it.
var ErrNotWaiting = errors.New("the request is no longer waiting; nothing was sent")

// waiting is one pending request.
type waiting struct {
	Request
	e        *servers.Elicitation
	answered chan struct{} // closed once answered: a link's context never ends
}

// pending are the requests waiting for the person, in arrival order.
type pending struct {
	mu   sync.Mutex
	list []*waiting
}

func (p *pending) add(w *waiting) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.list = append(p.list, w)
}

// get returns the request with id, leaving it pending.
func (p *pending) get(id string) (*waiting, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if i := p.index(id); i >= 0 {
		return p.list[i], true
	}
	return nil, false
}

// index is where the request with id is in the list, -1 if it is not
// pending. p.mu is held.
func (p *pending) index(id string) int {
	return slices.IndexFunc(p.list, func(w *waiting) bool { return w.ID == id })
}

// take removes the request with id and reports whether it was pending:
// whoever takes it answers or drops it, once.
func (p *pending) take(id string) (*waiting, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := p.index(id)
	if i < 0 {
		return nil, false
	}
	w := p.list[i]
	p.list = slices.Delete(p.list, i, i+1)
	return w, true
}

func (p *pending) all() []*waiting {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.list)
}

// take hands each request the router queues to the UI, and watches it
// until it ends.
func (c *Core) take() {
	for {
		e, err := c.router.Next(c.ctx)
		if err != nil {
			return
		}
		c.wait(e, false)
	}
}

// wait keeps e pending and tells the UI; a goroutine watches it until it
// is answered or goes stale.
func (c *Core) wait(e *servers.Elicitation, byPerson bool) {
	c.log.Debug("request arrived", "server", e.Server.Name, "id", e.ID, "mode", e.Mode)
	w := &waiting{Request: Request{ID: e.ID, Server: e.Server, Params: e.Params, Received: e.Received, ByPerson: byPerson}, e: e,
		answered: make(chan struct{})}
	c.pending.add(w)
	c.feed.push(event{request: &w.Request})
	c.refreshTray()
	c.needUI()
	go func() {
		select {
		case <-e.Context().Done():
		case <-w.answered:
			return
		}
		if _, ok := c.pending.take(e.ID); !ok {
			return // answered
		}
		reason := StaleReason(e.Context())
		c.record(entry(e, history.Stale, reason, nil, c.now()))
		c.feed.push(event{ended: &ended{ID: e.ID, Cause: causeText(e.Context())}})
		c.requestsChanged()
	}()
}

// requestsChanged follows a request's end: the tray, and the windows the
// core asked for by itself that waited for the requests.
func (c *Core) requestsChanged() {
	c.refreshTray()
	if len(c.pending.all()) > 0 {
		return
	}
	c.mu.Lock()
	later := c.later
	c.later = nil
	c.mu.Unlock()
	for _, s := range later {
		c.Show(s)
	}
}

// ErrRefused is Answer's error for an answer its request cannot take,
// wrapped with why: the request still waits, and nothing was sent.
var ErrRefused = errors.New("answer refused")

// Answer sends the person's answer to request id and records it. An answer
// the request cannot take (see checkAnswer) is refused with ErrRefused and
// logged: the request stays pending, so a window can send a right one, and
// neither the server nor the history sees it.
func (c *Core) Answer(id string, r forms.Result) error {
	w, ok := c.pending.get(id)
	if !ok {
		return ErrNotWaiting
	}
	// Here a request the windows were never told is refused too, once the
	// core keeps what it told them (issue 32, item 2: "a request that was
	// shown").
	if string(r.Content) == "null" { // JSON's way of sending none
		r.Content = nil
	}
	if err := checkAnswer(w.e, r); err != nil {
		c.log.Warn("answer refused", "server", w.Server.Name, "id", id, "err", err)
		return err
	}
	if w, ok = c.pending.take(id); !ok { // answered meanwhile
		return ErrNotWaiting
	}
	return c.answer(w, r, outcome(r.Action))
}

// checkAnswer says why r cannot answer e, nil when it can: its action is
// one the spec names; only accept carries content, and of a form only
// (a link's accept is consent, nothing more); and that content passes the
// checks the form window made before it sent it, forms' own rules and then
// the full JSON Schema validator on the server's schema (forms.Form.Accept).
// Decline and cancel with content are refused, not stripped: no window of
// ours sends them, so whoever did is not telling the person's answer.
func checkAnswer(e *servers.Elicitation, r forms.Result) error {
	content := len(r.Content) > 0
	switch {
	case r.Action != forms.Accept && r.Action != forms.Decline && r.Action != forms.Cancel:
		return refused("the action " + untrusted.Text(r.Action).Quote() + " is none of accept, decline and cancel")
	case r.Action != forms.Accept && content:
		return refused("a " + string(r.Action) + " carries no content")
	case r.Action != forms.Accept:
		return nil
	case e.Mode == servers.ModeURL && content:
		return refused("accepting a link carries no content")
	case e.Mode == servers.ModeURL:
		return nil
	case !content:
		return refused("accepting a form needs its content")
	}
	errs, err := e.Form.ValidateJSON(r.Content)
	if err == nil && len(errs) == 0 {
		errs, err = e.Form.Verify(r.Content)
	}
	if err != nil {
		return refused("the content cannot be checked: " + untrusted.Text(err.Error()).Line())
	}
	if len(errs) > 0 {
		return refused("the content does not fit the form: " + fieldProblems(errs))
	}
	return nil
}

// refused is ErrRefused with why, a sentence safe to show and log.
func refused(why string) error {
	return fmt.Errorf("%w: %s; the request still waits, nothing was sent", ErrRefused, why)
}

// fieldProblems puts errs in one line, field by field in name order; the
// names and messages hold the server's words (names, patterns) and the
// sender's (values), so both are shown through untrusted.
func fieldProblems(errs forms.FieldErrors) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(errs)) {
		field := "the content"
		if name != "" {
			field = untrusted.Text(name).Quote()
		}
		parts = append(parts, field+": "+untrusted.Text(errs[name]).Line())
	}
	return strings.Join(parts, "; ")
}

// answer replies r to w, which the caller took from pending, and records
// it as o.
func (c *Core) answer(w *waiting, r forms.Result, o history.Outcome) error {
	defer c.requestsChanged()
	defer close(w.answered)
	c.answering.RLock() // Flush waits until it is recorded
	defer c.answering.RUnlock()
	if err := w.e.Reply(r); err != nil {
		c.record(entry(w.e, history.Stale, StaleReason(w.e.Context()), nil, c.now()))
		c.feed.push(event{ended: &ended{ID: w.ID, Cause: causeText(w.e.Context())}})
		return ErrNotWaiting
	}
	c.record(entry(w.e, o, "", r.Content, c.now()))
	c.feed.push(event{ended: &ended{ID: w.ID, Answered: true}})
	return nil
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

// causeText is why ctx ended, as the UI is told: the raw cause, which
// StaleReason puts in words.
func causeText(ctx context.Context) string {
	if cause := context.Cause(ctx); cause != nil {
		return cause.Error()
	}
	return ""
}

// StaleReason says in plain words why a request stopped waiting; the
// server's own words in it are untrusted.
func StaleReason(ctx context.Context) string {
	text := strings.ReplaceAll(untrusted.Text(causeText(ctx)).Block(), "\n", ": ")
	if text == "" {
		return "The request is no longer waiting. Nothing was sent."
	}
	first, size := utf8.DecodeRuneInString(text)
	return string(unicode.ToUpper(first)) + text[size:] + ". Nothing was sent."
}
