package endpoint

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/untrusted"
)

// TEMPORARY: replaced by the app branch's protocol.go at merge.

type Bridged struct {
	ID       string    `json:"id"`
	Server   string    `json:"server"`
	Target   string    `json:"target"`
	Reported Peer      `json:"reported"`
	Host     Peer      `json:"host"`
	Protocol string    `json:"protocol,omitempty"`
	Since    time.Time `json:"since"`
}

type Peer struct {
	Name    untrusted.Text `json:"name"`
	Title   untrusted.Text `json:"title,omitempty"`
	Version untrusted.Text `json:"version,omitempty"`
}

type Question struct {
	Session Bridged         `json:"session"`
	Params  json.RawMessage `json:"params"`
}

type Completion struct {
	Session       string `json:"session"`
	Server        string `json:"server"`
	ElicitationID string `json:"elicitationId"`
}

func (c *Client) Elicit(ctx context.Context, q Question) (json.RawMessage, error) {
	return nil, errors.New("TODO")
}
func (c *Client) Bridge(ctx context.Context, s Bridged) error      { <-ctx.Done(); return nil }
func (c *Client) Complete(ctx context.Context, x Completion) error { return nil }
