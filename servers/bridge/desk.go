package bridge

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
)

// Desk shows elicitations to the person: the running Elicit Desk.
type Desk interface {
	// Ask shows one elicitation and returns the ElicitResult to send
	// back. It returns an error wrapping ErrNoWindow when no window can
	// be shown, a *jsonrpc.Error when the app refused the request as
	// sent, and any other error when the app went away before the person
	// answered. It returns soon after ctx ends.
	Ask(ctx context.Context, q endpoint.Question) (json.RawMessage, error)
	// Complete passes on a server's notifications/elicitation/complete.
	Complete(c endpoint.Completion)
	// Attach lists the session in the app until ctx ends; it is called
	// again whenever what the session knows changes. It must not block.
	Attach(ctx context.Context, s endpoint.Bridged)
}

// ErrNoWindow is the cause of an elicitation no window could show: no
// display, or the app could not be started.
var ErrNoWindow = errors.New("no window can be shown")
