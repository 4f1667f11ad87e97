package servers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// Mode is how an elicitation asks: a form, or a link to open.
type Mode string

const (
	ModeForm Mode = "form"
	ModeURL  Mode = "url"
)

// ServerInfo is what a server reports about itself in serverInfo. It is the
// server's claim, not the person's configuration: show it second, marked so.
type ServerInfo struct {
	Name    untrusted.Text `json:"name"`
	Title   untrusted.Text `json:"title,omitempty"`
	Version untrusted.Text `json:"version,omitempty"`
}

// String is the claim on one line, safe to show: "Title (name) version",
// the title left out when it is missing or the same as the name; "" when
// the server said nothing.
func (i ServerInfo) String() string {
	var parts []string
	switch {
	case i.Title != "" && i.Title != i.Name:
		parts = append(parts, i.Title.Line())
		if i.Name != "" {
			parts = append(parts, "("+i.Name.Line()+")")
		}
	case i.Name != "":
		parts = append(parts, i.Name.Line())
	}
	if i.Version != "" {
		parts = append(parts, i.Version.Line())
	}
	return strings.Join(parts, " ")
}

// Identity is who asks: the entry the person configured, and what the server
// says about itself, kept apart.
type Identity struct {
	Name     string     // the configured name under mcpServers
	Target   string     // the configured command line or URL
	Reported ServerInfo // the server's own serverInfo
	Host     HostInfo   // the host the server asks for, from its clientInfo; zero outside the bridge
	// Machine is the other machine a bridged server runs on, whose
	// requests came through a forward (elicitdesk remote); "" for this one.
	Machine string `json:",omitempty"`
	// Session is the bridged session that asks, as the core keeps it; ""
	// for a configured server. A URL request's completion must come from
	// the same session (Router.Complete), whatever name its server has.
	Session string `json:",omitempty"`
}

// Called names the server in a line of a list: its name, and the machine
// it runs on when that is another, "demo on devbox".
func (id Identity) Called() string { return id.CalledShort(0) }

// CalledShort is Called with the name and the machine each cut to max
// characters (0: whole), for a title.
func (id Identity) CalledShort(max int) string {
	cut := func(s string) string {
		if max == 0 {
			return untrusted.Text(s).Line()
		}
		return untrusted.Text(s).Short(max)
	}
	if id.Machine != "" {
		return cut(id.Name) + " on " + cut(id.Machine)
	}
	return cut(id.Name)
}

// AsksFor names the other machine a bridged server runs on and the host
// it asks for: "for Claude Desktop", "on devbox, for Claude Code"; "" for
// a configured server. The machine comes first: the host names itself,
// and a name padded with spaces would push the machine out of sight.
func (id Identity) AsksFor() string {
	if id.Host == (HostInfo{}) && id.Machine == "" {
		return ""
	}
	line := "for a host that gave no name"
	if l := id.Host.Label(); l != "" {
		line = "for " + l
	}
	if id.Machine != "" { // a name the person gave: checked, but shown as any other
		line = "on " + untrusted.Text(id.Machine).Line() + ", " + line
	}
	return line
}

// limited is what the router limits a request by: its server, or, for a
// server on another machine, the machine, whatever its servers are named.
func (id Identity) limited() string {
	if id.Machine != "" {
		return "\x00machine " + id.Machine // apart from every configured name
	}
	return id.Name
}

// Elicitation is one request for the person, whichever spec revision or
// transport it came by.
type Elicitation struct {
	ID       string // unique among this process's elicitations
	Server   Identity
	Params   json.RawMessage // as sent, within the limits they passed
	Message  untrusted.Text
	Mode     Mode
	Schema   json.RawMessage // form mode: requestedSchema as sent, to store and show as written
	Form     *forms.Schema   // form mode: Schema, parsed when the request was accepted
	URL      untrusted.Text  // url mode
	URLID    string          // url mode: the server's elicitationId, for the complete notification
	Received time.Time

	ctx      context.Context
	cancel   context.CancelCauseFunc
	link     context.Context // the life of the link it came on; nil when not known
	once     sync.Once
	answer   chan reply
	complete chan struct{}
	finished sync.Once
}

// Completed is closed when the server reports, with
// notifications/elicitation/complete, that the out-of-band interaction of a
// URL-mode elicitation is over.
func (e *Elicitation) Completed() <-chan struct{} { return e.complete }

// lifeKey carries the life of the connection requests are asked on.
type lifeKey struct{}

// AskedOn is ctx for asking requests that came on a connection whose
// life is life (nil when not known): they are Gone when it ends. The
// innermost counts: a server's input request asked inside a tool call
// came on the server's connection, not on the caller's.
func AskedOn(ctx, life context.Context) context.Context {
	return context.WithValue(ctx, lifeKey{}, life)
}

// linkOf is the life AskedOn gave ctx, or nil.
func linkOf(ctx context.Context) context.Context {
	life, _ := ctx.Value(lifeKey{}).(context.Context)
	return life
}

// Gone is closed when the connection it came on has ended (the server
// exited, a bridge or a script went away), which, once it is answered,
// may leave a URL request's step never reported complete; nil, never
// closed, when the connection is not known.
func (e *Elicitation) Gone() <-chan struct{} {
	if e.link == nil {
		return nil
	}
	return e.link.Done()
}

func (e *Elicitation) markCompleted() { e.finished.Do(func() { close(e.complete) }) }

// ErrAnswered is returned by Reply after the first reply.
var ErrAnswered = errors.New("elicitation already answered")

// Context is done when the request no longer needs an answer: the server
// cancelled it, disconnected or stopped waiting. context.Cause says which.
func (e *Elicitation) Context() context.Context { return e.ctx }

// reply is the person's answer, or the error that answers the server in
// its place.
type reply struct {
	res forms.Result
	err *jsonrpc.Error
}

// Reply gives the person's answer. Only the first reply counts; a reply after
// the request went stale is dropped and reported.
func (e *Elicitation) Reply(r forms.Result) error { return e.send(reply{res: r}) }

// Refuse answers the server err instead of a person's answer, where
// whoever was to ask could not: the app that refused the request, or that
// could not be reached. Only the first reply counts, as with Reply.
func (e *Elicitation) Refuse(err *jsonrpc.Error) error { return e.send(reply{err: err}) }

func (e *Elicitation) send(r reply) error {
	err := ErrAnswered
	e.once.Do(func() {
		err = nil
		if cause := context.Cause(e.ctx); cause != nil {
			err = fmt.Errorf("not sent: %w", cause)
			return
		}
		e.answer <- r
	})
	return err
}

// newElicitation starts an elicitation whose context ends with parent.
func newElicitation(parent context.Context, id string, who Identity, p Params, now time.Time) *Elicitation {
	ctx, cancel := context.WithCancelCause(parent)
	return &Elicitation{
		ID: id, Server: who, Params: p.Raw, Message: p.Message, Mode: p.Mode, Schema: p.Schema, Form: p.Form,
		URL: p.URL, URLID: p.ElicitationID, Received: now,
		ctx: ctx, cancel: cancel, link: linkOf(parent), answer: make(chan reply, 1), complete: make(chan struct{}),
	}
}

// wait blocks until the person answers or the request goes stale; the
// error is the context's cause then.
func (e *Elicitation) wait() (forms.Result, error) {
	select {
	case r := <-e.answer:
		e.cancel(errAnsweredCause)
		if r.err != nil {
			return forms.Result{}, r.err
		}
		return r.res, nil
	case <-e.ctx.Done():
		return forms.Result{}, context.Cause(e.ctx)
	}
}

var errAnsweredCause = errors.New("answered")

// Params are the parameters of elicitation/create (or of one 2026-07-28
// input request), checked.
type Params struct {
	Raw           json.RawMessage // the params as sent
	Message       untrusted.Text
	Mode          Mode
	Schema        json.RawMessage
	Form          *forms.Schema // Schema, parsed
	URL           untrusted.Text
	ElicitationID string
}

// wireParams is the JSON shape of the parameters; the schema stays raw.
type wireParams struct {
	Message         *untrusted.Text `json:"message"`
	Mode            string          `json:"mode"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	URL             untrusted.Text  `json:"url"`
	ElicitationID   string          `json:"elicitationId"`
}

// ParseParams checks elicitation parameters as sent and parses a form's
// schema. A request over the limits of CheckParams, in a mode we do
// not support, without a message, with a bad URL, or with a schema no form
// can show is a *jsonrpc.Error with code -32602 and the reason (for a
// schema, the list of problems as data).
func ParseParams(raw json.RawMessage) (Params, error) {
	if err := CheckParams(raw); err != nil {
		return Params{}, err
	}
	var w wireParams
	if err := json.Unmarshal(raw, &w); err != nil {
		return Params{}, invalidParams("elicitation parameters are not valid: %v", err)
	}
	if w.Message == nil {
		return Params{}, invalidParams("elicitation has no message")
	}
	p := Params{Raw: raw, Message: *w.Message, Mode: Mode(w.Mode), URL: w.URL, ElicitationID: w.ElicitationID}
	switch p.Mode {
	case "", ModeForm:
		p.Mode = ModeForm
		if len(w.RequestedSchema) == 0 {
			return Params{}, invalidParams("form elicitation has no requestedSchema")
		}
		form, err := forms.Parse(w.RequestedSchema)
		if err != nil {
			var se *forms.SchemaError
			if errors.As(err, &se) {
				data, _ := json.Marshal(map[string]any{"problems": se.Problems})
				return Params{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error(), Data: data}
			}
			return Params{}, invalidParams("requestedSchema: %v", err)
		}
		p.Schema, p.Form = w.RequestedSchema, form
	case ModeURL:
		u, err := url.Parse(string(p.URL))
		if err != nil || !u.IsAbs() || u.Host == "" {
			return Params{}, invalidParams("url elicitation needs an absolute URL, got %q", p.URL)
		}
	default:
		return Params{}, invalidParams("elicitation mode %q is not supported: this client supports form and url", w.Mode)
	}
	return p, nil
}
