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
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// Request is one elicitation waiting for the person, as the windows are
// given it.
type Request struct {
	ID       string           `json:"id"` // the core's; unique while it runs
	Server   servers.Identity `json:"server"`
	Params   json.RawMessage  `json:"params"` // elicitation/create's params as sent: the windows parse them with servers.ParseParams
	Received time.Time        `json:"received"`
	// ByPerson: the person's own tool call raised it (a link of a -32042
	// error, or a question asked while a call the person made from the
	// windows is under way): it opens past the window limit, with the
	// keyboard.
	ByPerson bool `json:"byPerson,omitempty"`
	// Opening counts the times the windows were told to open it. A
	// window closing unanswered names it (Core.Closed), so that a close
	// that crosses the person's reopening frees no place.
	Opening int `json:"opening"`
}

// ErrNotWaiting is Answer's error for a request that is not pending: it
// went stale, or was answered already.
var ErrNotWaiting = errors.New("the request is no longer waiting; nothing was sent")

// errNotShown is Answer's error for a request the windows were never
// given: nobody can have answered it.
var errNotShown = fmt.Errorf("%w: the request was not shown in a window; it still waits, nothing was sent", ErrRefused)

// waiting is one pending request. Its open and shown are its pending's.
type waiting struct {
	Request
	e        *servers.Elicitation
	answered chan struct{} // closed once answered: a link's context never ends
	open     bool          // it has a place among the windows
	shown    bool          // the windows were told to open it
	wanted   bool          // the person asked for it while no windows were attached
	aside    bool          // its window was closed unanswered: only the person opens it again
	accepted bool          // answered accept; set before answered closes
}

// pending are the requests waiting for the person, in arrival order, and
// which of them have a window: at most max at once, the rest waiting in
// arrival order, so that a flood of requests does not bury the desktop.
// What the person asks for opens past the limit.
type pending struct {
	mu   sync.Mutex
	list []*waiting
	max  int // windows at once; 0 until set, which Options do
}

// add takes in w and reports whether it gets a window now.
func (p *pending) add(w *waiting) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.list = append(p.list, w)
	w.open = w.ByPerson || p.opened() < p.max
	return w.open
}

// opened counts the requests with a window; p.mu is held.
func (p *pending) opened() int {
	n := 0
	for _, w := range p.list {
		if w.open {
			n++
		}
	}
	return n
}

// fill gives the oldest waiting requests the places free; p.mu is held.
func (p *pending) fill() []*waiting {
	var next []*waiting
	for _, w := range p.list {
		if p.opened() >= p.max {
			break
		}
		if !w.open && !w.aside {
			w.open = true
			next = append(next, w)
		}
	}
	return next
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
// whoever takes it answers or drops it, once. It returns too the requests
// its place goes to.
func (p *pending) take(id string) (*waiting, []*waiting, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := p.index(id)
	if i < 0 {
		return nil, nil, false
	}
	w := p.list[i]
	p.list = slices.Delete(p.list, i, i+1)
	return w, p.fill(), true
}

// pick gives the person's choice a window, past the limit: request id,
// or for "" the one a second start brings forward: the oldest without a
// window (closed unanswered, or waiting its turn), else the oldest.
func (p *pending) pick(id string) (*waiting, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := slices.IndexFunc(p.list, func(w *waiting) bool { return w.ID == id || id == "" && !w.open })
	if i < 0 && id == "" && len(p.list) > 0 {
		i = 0
	}
	if i < 0 {
		return nil, false
	}
	w := p.list[i]
	w.open, w.aside = true, false
	return w, true
}

// closed frees the place of request id, whose window of its opening-th
// opening closed while it still waits, and returns the requests it goes
// to. A window of an earlier opening closed as it reopened: it keeps its
// place.
func (p *pending) closed(id string, opening int) []*waiting {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.list {
		if w.ID == id && w.open && w.Opening == opening {
			w.open, w.shown, w.aside = false, false, true
			return p.fill()
		}
	}
	return nil
}

// setMax changes how many windows open at once; a lower limit leaves open
// windows open.
func (p *pending) setMax(n int) []*waiting {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.max = n
	return p.fill()
}

// reopen marks every request with a window shown to windows that just
// attached, and returns their openings in arrival order.
func (p *pending) reopen() []opening {
	p.mu.Lock()
	defer p.mu.Unlock()
	var open []opening
	for _, w := range p.list {
		w.shown = w.open
		if w.open {
			by := ByApp
			if w.wanted {
				by = ByPerson
			}
			w.wanted = false
			open = append(open, w.opening(by))
		}
	}
	return open
}

// opening counts one more opening of w, with its pending's lock held,
// and returns it.
func (w *waiting) opening(by Opener) opening {
	w.Opening++
	return opening{Request: w.Request, By: by}
}

// opening counts and returns one more opening of w.
func (p *pending) opening(w *waiting, by Opener) opening {
	p.mu.Lock()
	defer p.mu.Unlock()
	return w.opening(by)
}

// told notes that the windows were told to open w (shown), or, when none
// are attached, whether the person wants it once they are.
func (p *pending) told(w *waiting, shown bool, by Opener) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w.shown = w.shown || shown
	w.wanted = !shown && (w.wanted || by == ByPerson)
}

// wasShown reports whether request id waits and the windows were told to
// open it.
func (p *pending) wasShown(id string) (pending, shown bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.list {
		if w.ID == id {
			return true, w.shown
		}
	}
	return false, false
}

// waits reports whether request id waits.
func (p *pending) waits(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.ContainsFunc(p.list, func(w *waiting) bool { return w.ID == id })
}

// count is how many requests wait, and how many of them have no place
// among the windows.
func (p *pending) count() Count {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := Count{All: len(p.list)}
	for _, w := range p.list {
		if !w.open {
			n.Windowless++
		}
	}
	return n
}

// split is the waiting requests with a place among the windows and those
// without, each in arrival order.
func (p *pending) split() (windowed, windowless []*waiting) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.list {
		if w.open {
			windowed = append(windowed, w)
		} else {
			windowless = append(windowless, w)
		}
	}
	return windowed, windowless
}

func (p *pending) all() []*waiting {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.list)
}

// wait keeps e pending, opens its window when it has a place, and watches
// it until it is answered or goes stale.
func (c *Core) wait(e *servers.Elicitation, byPerson bool) {
	c.log.Debug("request arrived", "server", e.Server.Name, "id", e.ID, "mode", e.Mode)
	w := &waiting{Request: Request{ID: e.ID, Server: e.Server, Params: e.Params, Received: e.Received, ByPerson: byPerson}, e: e,
		answered: make(chan struct{})}
	by := ByApp
	if byPerson {
		by = ByPerson
	}
	c.feed.admit(&c.pending, w, by)
	c.noticeArrival(w)
	c.countChanged()
	c.needUI()
	go c.watch(w)
}

// linkWait bounds how long after a URL request's accept the core waits for
// its server to say the step is done, for the window that shows it.
const linkWait = time.Hour

// watch follows w until it is answered or goes stale, and a URL request
// until its server says the step is done, which may come before the
// person's answer or after it, or the connection it came on ends first.
func (c *Core) watch(w *waiting) {
	e, completed := w.e, w.e.Completed()
	for waiting := true; waiting; {
		select {
		case <-completed:
			c.feed.push(event{completed: &completion{ID: e.ID}})
			completed = nil
		case <-e.Context().Done(): // gone stale, or ended by its answer
			if _, next, ok := c.pending.take(e.ID); ok {
				c.stale(w, next)
				return
			}
			<-w.answered // whoever took it closes it
			waiting = false
		case <-w.answered:
			waiting = false
		}
	}
	if e.Mode != servers.ModeURL || completed == nil || !w.accepted {
		return
	}
	select {
	case <-completed:
		c.feed.push(event{completed: &completion{ID: e.ID}})
	case <-e.Gone():
		select {
		case <-completed: // said just before its connection ended
			c.feed.push(event{completed: &completion{ID: e.ID}})
		default:
			c.feed.push(event{completed: &completion{ID: e.ID, Gone: true}})
		}
	case <-time.After(linkWait):
	case <-c.ctx.Done():
	}
}

// open tells the windows to open w's window.
func (c *Core) open(w *waiting, by Opener) { c.feed.open(&c.pending, w, by) }

// stale records w, which went stale and was taken from pending, tells the
// windows, and opens those of next in its place.
func (c *Core) stale(w *waiting, next []*waiting) {
	c.record(entry(w.e, history.Stale, StaleReason(w.e.Context(), w.e.Server.Name), nil, c.now()))
	c.feed.push(event{ended: &ended{ID: w.ID, Cause: causeText(w.e.Context())}})
	c.requestsChanged(next)
}

// requestsChanged follows a request's end: the windows its place goes to,
// the tray, and the windows the core asked for by itself that waited for
// the requests.
func (c *Core) requestsChanged(next []*waiting) {
	for _, w := range next {
		c.open(w, ByApp)
	}
	c.withdrawAnswered()
	if c.countChanged() > 0 || c.quitting.Load() {
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

// countChanged tells the tray and the windows how many requests wait now,
// with a window and without, and returns how many in all.
func (c *Core) countChanged() int {
	n := c.feed.pushCount(&c.pending)
	c.refreshTray()
	return n
}

// Closed frees the place of request id, whose window of its opening-th
// opening (Request.Opening) the person closed without answering: it waits
// on in the tray menu and the windows' line of requests without one, and
// the next request takes its place.
func (c *Core) Closed(id string, opening int) {
	for _, w := range c.pending.closed(id, opening) {
		c.open(w, ByApp)
	}
	c.countChanged()
}

// SetWindowPrefs applies the person's choices of how request windows
// open, within the bounds of the Settings window.
func (c *Core) SetWindowPrefs(p WindowPrefs) error {
	if err := p.Check(); err != nil {
		return err
	}
	c.arrivals.setNotify(p.Notify)
	for _, w := range c.pending.setMax(p.Max) {
		c.open(w, ByApp)
	}
	c.countChanged()
	return nil
}

// Check says what is wrong with p: too few or too many windows.
func (p WindowPrefs) Check() error {
	if p.Max < MinWindows || p.Max > MaxWindows {
		return fmt.Errorf("open between %d and %d request windows at once, not %d", MinWindows, MaxWindows, p.Max)
	}
	return nil
}

// Bounds of how many request windows open at once: a typo can neither
// hide every request nor bury the desktop.
const (
	MinWindows = 1
	MaxWindows = 20
)

// ErrRefused is Answer's error for an answer its request cannot take,
// wrapped with why: the request still waits, and nothing was sent.
var ErrRefused = errors.New("answer refused")

// Answer sends the person's answer to request id and records it. Only a
// request the windows were told to open can be answered (errNotShown),
// and only with an answer it can take (see checkAnswer; ErrRefused). A
// refused answer is logged; the request stays pending, so a window can
// send a right one, and neither the server nor the history sees it.
func (c *Core) Answer(id string, r forms.Result) error {
	w, ok := c.pending.get(id)
	if !ok {
		c.log.Warn("answer refused", "id", id, "err", ErrNotWaiting)
		return ErrNotWaiting
	}
	if string(r.Content) == "null" { // JSON's way of sending none
		r.Content = nil
	}
	err := checkAnswer(w.e, r)
	if _, shown := c.pending.wasShown(id); !shown {
		err = errNotShown
	}
	if err != nil {
		c.log.Warn("answer refused", "server", w.Server.Name, "id", id, "err", err)
		return err
	}
	w, next, ok := c.pending.take(id)
	if !ok { // answered meanwhile
		c.log.Warn("answer refused", "id", id, "err", ErrNotWaiting)
		return ErrNotWaiting
	}
	return c.answer(w, next, r, outcome(r.Action))
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

// answer replies r to w, which the caller took from pending, records it
// as o, and opens the windows of next in its place.
func (c *Core) answer(w *waiting, next []*waiting, r forms.Result, o history.Outcome) error {
	defer close(w.answered)
	c.answering.RLock() // Flush waits until it is recorded
	defer c.answering.RUnlock()
	if err := w.e.Reply(r); err != nil {
		c.stale(w, next)
		return ErrNotWaiting
	}
	w.accepted = r.Action == forms.Accept
	c.record(entry(w.e, o, "", r.Content, c.now()))
	c.feed.push(event{ended: &ended{ID: w.ID, Answered: true}})
	c.requestsChanged(next)
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

// StaleReason says in plain words why server's request, whose context is
// ctx, stopped waiting; the server's own words in it, and its name, are
// untrusted.
func StaleReason(ctx context.Context, server string) string {
	return StaleWords(server, causeText(ctx))
}

// StaleWords is StaleReason of a cause as the windows are told it. A
// cancel came from the server that asked, which it names: "the other
// side" leaves the person guessing which of their servers it was.
func StaleWords(server, cause string) string {
	if rest, ok := strings.CutPrefix(cause, rpc.ErrCancelled.Error()); ok && server != "" {
		// Not capitalised: the name is shown as the server gave it. Its
		// reason is its words, quoted: not the app's.
		s := untrusted.Text(server).Short(menuName) + " cancelled the request"
		if why := strings.TrimPrefix(rest, ": "); why != "" {
			s += ", saying " + untrusted.Text(why).Quote()
		}
		return s + ". Nothing was sent."
	}
	text := strings.ReplaceAll(untrusted.Text(cause).Block(), "\n", ": ")
	if text == "" {
		return "The request is no longer waiting. Nothing was sent."
	}
	first, size := utf8.DecodeRuneInString(text)
	return string(unicode.ToUpper(first)) + text[size:] + ". Nothing was sent."
}
