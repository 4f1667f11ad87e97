package demo

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

const (
	defaultGiveUpSeconds = 3
	maxGiveUpSeconds     = 600
)

// addGiveUpTool registers ask_then_give_up.
func (d *demo) addGiveUpTool() {
	d.srv.AddTool(mcp.NewTool(ToolAskThenGiveUp,
		mcp.WithDescription("Asks a question and, when no answer arrives within `seconds`, cancels its own request (the client receives notifications/cancelled for the elicitation's request id) and reports that it gave up."),
		mcp.WithNumber("seconds",
			mcp.Description("How long to wait for an answer, in seconds; more than 0."),
			mcp.DefaultNumber(defaultGiveUpSeconds),
			mcp.Max(maxGiveUpSeconds),
		),
		readOnly,
	), d.askThenGiveUp)
}

// giveUpReport is what ask_then_give_up reports: the answer when one came in
// time, otherwise that it gave up and, over stdio, which request it cancelled.
type giveUpReport struct {
	GaveUp    bool                          `json:"gaveUp"`
	Seconds   float64                       `json:"seconds"`
	RequestID json.RawMessage               `json:"requestId,omitempty"`
	Action    mcp.ElicitationResponseAction `json:"action,omitempty"`
	Content   any                           `json:"content,omitempty"`
}

func (d *demo) askThenGiveUp(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	seconds := req.GetFloat("seconds", defaultGiveUpSeconds)
	if seconds <= 0 || seconds > maxGiveUpSeconds {
		return mcp.NewToolResultErrorf("seconds must be more than 0 and at most %d, not %v", maxGiveUpSeconds, seconds), nil
	}
	if !canAsk(ctx, mcp.ElicitationModeForm) {
		return unsupported(mcp.ElicitationModeForm), nil
	}
	wait := time.Duration(seconds * float64(time.Second))

	// The tag lets the stdio wire tell us the request's JSON-RPC id, which
	// notifications/cancelled must name.
	tag := rand.Text()
	params := form(fmt.Sprintf("Answer within %v, or the server gives up and withdraws this question.", wait), giveUpSchema)
	params.Meta = &mcp.Meta{AdditionalFields: map[string]any{askMetaKey: tag}}
	w := wireFrom(ctx)
	if w != nil {
		defer w.forget(tag)
	}

	askCtx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	result, err := d.ask(askCtx, params)
	if err == nil {
		return report(fmt.Sprintf("The client %s in time.", said(result.Action)),
			giveUpReport{Seconds: seconds, Action: result.Action, Content: result.Content}), nil
	}
	// Only our own deadline is giving up; if the call itself ended, nobody is
	// waiting for a result.
	if ctx.Err() != nil || !errors.Is(askCtx.Err(), context.DeadlineExceeded) {
		return failed(err), nil
	}

	out := giveUpReport{GaveUp: true, Seconds: seconds}
	headline := fmt.Sprintf("Gave up: no answer within %v, so the server withdrew its question", wait)
	switch {
	case w == nil:
		// In process there is no request id: the client's handler sees its
		// context cancelled instead.
		headline += " by cancelling the request's context."
	default:
		// mcp-go's stdio session only stops waiting when the context ends;
		// telling the client is up to us.
		id, ok := w.requestID(tag)
		if !ok {
			headline += ", but could not tell the client: the request's id is unknown."
			break
		}
		reason := fmt.Sprintf("no answer within %v", wait)
		if err := w.notify(string(mcp.MethodNotificationCancelled), map[string]any{"requestId": id, "reason": reason}); err != nil {
			headline += fmt.Sprintf(", but could not send notifications/cancelled: %v.", err)
			break
		}
		out.RequestID = id
		headline += fmt.Sprintf(" and sent notifications/cancelled for request %s.", id)
	}
	return report(headline, out), nil
}
