package history

import (
	"encoding/json"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

// Outcome is how a request ended.
type Outcome string

const (
	Accepted    Outcome = "accepted"     // the person submitted the form
	Declined    Outcome = "declined"     // the person said no
	Cancelled   Outcome = "cancelled"    // the person dismissed it
	Stale       Outcome = "stale"        // the server stopped waiting; nothing was sent
	RateLimited Outcome = "rate-limited" // refused by the server's limits with an error
	Error       Outcome = "error"        // answered with a JSON-RPC error
	NoWindow    Outcome = "no-window"    // answered cancel without asking: no window could be shown
	ToHost      Outcome = "to-host"      // no window could be shown: the bridge gave it to the host, which answered it its own way
	AppQuit     Outcome = "app-quit"     // answered cancel because the person quit the app while it waited
)

// Outcomes lists every outcome, for filters and flag checks.
func Outcomes() []Outcome {
	return []Outcome{Accepted, Declined, Cancelled, Stale, RateLimited, Error, NoWindow, ToHost, AppQuit}
}

// Entry is one request and how it ended.
type Entry struct {
	ID      int64 // assigned by Add, in the order of Received
	Server  servers.Identity
	Message untrusted.Text
	Mode    servers.Mode
	Schema  json.RawMessage // form mode: requestedSchema byte for byte, so fields keep their order (secret defaults redacted)
	URL     untrusted.Text  // url mode
	Outcome Outcome
	Reason  string          // why it went stale, was refused or failed, in plain words
	Content json.RawMessage // what was sent, secrets redacted; nil when nothing was
	Cut     *Cut            // set by Add when it kept only a prefix of Message or Schema
	// Received is when the request arrived; Answered when its outcome was
	// settled. Zero Answered means unknown.
	Received, Answered time.Time
}

// entryJSON is the shape of an Entry in exports and on the clipboard.
type entryJSON struct {
	ID      int64           `json:"id"`
	Server  serverJSON      `json:"server"`
	Message untrusted.Text  `json:"message"`
	Mode    servers.Mode    `json:"mode"`
	Schema  json.RawMessage `json:"requestedSchema,omitempty"`
	URL     untrusted.Text  `json:"url,omitempty"`
	Outcome Outcome         `json:"outcome"`
	Reason  string          `json:"reason,omitempty"`
	Content json.RawMessage `json:"content,omitempty"`
	Cut     *Cut            `json:"cut,omitempty"`
	// Times are RFC 3339, as encoding/json writes time.Time.
	Received time.Time `json:"received"`
	Answered time.Time `json:"answered,omitzero"`
}

type serverJSON struct {
	Name     string             `json:"name"`
	Target   string             `json:"target"`
	Reported servers.ServerInfo `json:"reported"`
	Host     servers.HostInfo   `json:"host,omitzero"`     // the host a bridged server asked for
	Machine  string             `json:"machine,omitempty"` // the machine it runs on, when another
}

// MarshalJSON writes the entry with lower-case keys, as Export does: one
// object with the server identity, the raw request, the outcome and the times.
func (e Entry) MarshalJSON() ([]byte, error) {
	return json.Marshal(entryJSON{
		ID:       e.ID,
		Server:   serverJSON{Name: e.Server.Name, Target: e.Server.Target, Reported: e.Server.Reported, Host: e.Server.Host, Machine: e.Server.Machine},
		Message:  e.Message,
		Mode:     e.Mode,
		Schema:   e.Schema,
		URL:      e.URL,
		Outcome:  e.Outcome,
		Reason:   e.Reason,
		Content:  e.Content,
		Cut:      e.Cut,
		Received: e.Received,
		Answered: e.Answered,
	})
}

// Request is the request's parameters as elicitation/create carried them:
// message, mode and requestedSchema or url.
func (e Entry) Request() json.RawMessage {
	out, _ := json.Marshal(struct {
		Message untrusted.Text  `json:"message"`
		Mode    servers.Mode    `json:"mode"`
		Schema  json.RawMessage `json:"requestedSchema,omitempty"`
		URL     untrusted.Text  `json:"url,omitempty"`
	}{e.Message, e.Mode, e.Schema, e.URL})
	return out
}

// Response is what went back to the server: the ElicitResult for an answer
// (a request no window could show and one the app quit on are a cancel),
// the JSON-RPC error {"error": {"code": code, "message": reason}} for a
// refusal, and {"sent": false, "reason": reason} for a stale request, to
// which nothing was sent.
func (e Entry) Response() json.RawMessage {
	var v any
	switch e.Outcome {
	case Accepted:
		v = forms.Result{Action: forms.Accept, Content: e.Content}
	case Declined:
		v = forms.Result{Action: forms.Decline}
	case Cancelled, NoWindow, AppQuit:
		v = forms.Result{Action: forms.Cancel}
	case Error, RateLimited:
		v = struct {
			Error jsonrpc.Error `json:"error"`
		}{jsonrpc.Error{Code: e.Outcome.errorCode(), Message: e.Reason}}
	default:
		v = struct {
			Sent   bool   `json:"sent"`
			Reason string `json:"reason"`
		}{false, e.Reason}
	}
	out, _ := json.Marshal(v)
	return out
}

// errorCode is the code of the JSON-RPC error a refusal sent: too many
// requests are jsonrpc.CodeServer, a request refused as unusable (the
// only other error the app answers) jsonrpc.CodeInvalidParams.
func (o Outcome) errorCode() int {
	if o == RateLimited {
		return jsonrpc.CodeServer
	}
	return jsonrpc.CodeInvalidParams
}

// Headline is the message's headline, safe to show, for one-line lists.
func (e Entry) Headline(max int) string { return e.Message.Headline(max) }
