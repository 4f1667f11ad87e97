package demo

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

const (
	// linkBase is where the URL elicitations point. Nothing is served there:
	// the demo only needs a link the person can see and consent to.
	linkBase = "https://example.com/elicit-desk-demo"

	defaultCompleteSeconds = 1
	maxCompleteSeconds     = 60

	// linkInput is the inputRequests key of needs_link's URL elicitation.
	linkInput = "link"
)

// linkURL is the demo link for one elicitation. The query carries only the
// random elicitation id: a URL must not carry anything about the user.
func linkURL(elicitationID string) string {
	return linkBase + "?" + url.Values{"session": {elicitationID}}.Encode()
}

// addURLTools registers the URL-mode tools.
func (d *demo) addURLTools() {
	d.srv.AddTool(mcp.NewTool(ToolOpenLink,
		mcp.WithDescription("Asks the client, in URL mode, to open "+linkBase+"?session=…; after an accept it waits `seconds`, sends notifications/elicitation/complete with the elicitationId and returns."),
		mcp.WithNumber("seconds",
			mcp.Description("How long after the accept to send notifications/elicitation/complete, in seconds."),
			mcp.DefaultNumber(defaultCompleteSeconds),
			mcp.Min(0),
			mcp.Max(maxCompleteSeconds),
		),
		readOnly,
	), d.openLink)

	d.srv.AddTool(mcp.NewTool(ToolNeedsLink,
		mcp.WithDescription("Cannot go through until the user has visited a link. Before 2026-07-28 the first call fails with -32042 (URLElicitationRequiredError) carrying one URL elicitation, and the next call in the same session succeeds. From 2026-07-28, where -32042 is gone, it asks for the link with an input_required result instead."),
		readOnly,
	), d.needsLink)
}

// linkReport is what the URL-mode tools report.
type linkReport struct {
	ElicitationID string                        `json:"elicitationId"`
	URL           string                        `json:"url,omitempty"`
	Action        mcp.ElicitationResponseAction `json:"action,omitempty"`
	Completed     bool                          `json:"completed,omitempty"` // open_link sent notifications/elicitation/complete
	Retried       bool                          `json:"retried,omitempty"`   // needs_link succeeded on a call after the -32042
}

func (d *demo) openLink(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	seconds := req.GetFloat("seconds", defaultCompleteSeconds)
	if seconds < 0 || seconds > maxCompleteSeconds {
		return mcp.NewToolResultErrorf("seconds must be from 0 to %d, not %v", maxCompleteSeconds, seconds), nil
	}
	if !canAsk(ctx, mcp.ElicitationModeURL) {
		return unsupported(mcp.ElicitationModeURL), nil
	}
	id := rand.Text()
	link := linkURL(id)
	session := server.ClientSessionFromContext(ctx)
	result, err := d.srv.RequestURLElicitation(ctx, session, id, link,
		"Open the Elicit Desk demo page. Nothing happens there: the server reports the visit complete shortly after you accept.")
	if err != nil {
		return failed(err), nil
	}
	out := linkReport{ElicitationID: id, URL: link, Action: result.Action}
	if result.Action != mcp.ElicitationResponseActionAccept {
		return report(fmt.Sprintf("The client %s, so there is nothing to complete.", said(result.Action)), out), nil
	}

	// Accept only means the person agreed to go; the out-of-band part
	// "finishes" a moment later.
	wait := time.Duration(seconds * float64(time.Second))
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return failed(fmt.Errorf("waiting to complete %s: %w", id, context.Cause(ctx))), nil
	case <-timer.C:
	}
	if err := d.sendComplete(ctx, session, id); err != nil {
		return mcp.NewToolResultErrorf("the client accepted, but notifications/elicitation/complete for %s could not be sent: %v", id, err), nil
	}
	out.Completed = true
	return report(fmt.Sprintf("The client accepted; notifications/elicitation/complete for %s was sent %v later.", id, wait), out), nil
}

// sendComplete sends notifications/elicitation/complete. Over stdio it goes
// out through the wire so that it precedes the tool's result; mcp-go's
// SendElicitationComplete queues it and it may come after.
func (d *demo) sendComplete(ctx context.Context, session server.ClientSession, id string) error {
	if w := wireFrom(ctx); w != nil {
		return w.notify(string(mcp.MethodNotificationElicitationComplete), map[string]any{"elicitationId": id})
	}
	return d.srv.SendElicitationComplete(ctx, session, id)
}

func (d *demo) needsLink(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if !canAsk(ctx, mcp.ElicitationModeURL) {
		return unsupported(mcp.ElicitationModeURL), nil
	}
	if isModern(ctx) {
		return d.needsLinkRoundTrip(req)
	}

	sessionID := ""
	if s := server.ClientSessionFromContext(ctx); s != nil {
		sessionID = s.SessionID()
	}
	if id, ok := d.links.take(sessionID); ok {
		return report(fmt.Sprintf("The call went through: the client retried after URL elicitation %s.", id),
			linkReport{ElicitationID: id, Retried: true}), nil
	}
	id := rand.Text()
	d.links.put(sessionID, id)
	// mcp-go turns this error into a JSON-RPC error -32042 whose data holds
	// the elicitations, for clients before 2026-07-28.
	return nil, mcp.URLElicitationRequiredError{Elicitations: []mcp.ElicitationParams{{
		Mode:          mcp.ElicitationModeURL,
		ElicitationID: id,
		URL:           linkURL(id),
		Message:       "This tool needs you to visit a link first. Open it, then call the tool again.",
	}}}
}

// needsLinkRoundTrip is needs_link for 2026-07-28, which reserves -32042: the
// URL elicitation goes in an input_required result, and the retry carries the
// answer and the state naming the elicitation.
func (d *demo) needsLinkRoundTrip(req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	p := req.Params.MultiRoundTripParams
	if p.RequestState == "" && len(p.InputResponses) == 0 {
		return d.askForLink(rand.Text()), nil
	}
	st, err := d.state.open(p.RequestState, ToolNeedsLink, d.now())
	if err != nil {
		return nil, err
	}
	got := server.ElicitationResponse(p.InputResponses, st.Input)
	if got == nil {
		// The spec asks for the missing input again rather than failing.
		return d.askForLink(st.ElicitationID), nil
	}
	out := linkReport{ElicitationID: st.ElicitationID, URL: linkURL(st.ElicitationID), Action: got.Action}
	if got.Action != mcp.ElicitationResponseActionAccept {
		return report(fmt.Sprintf("The client %s the link, so the call did not go through.", said(got.Action)), out), nil
	}
	out.Retried = true
	return report(fmt.Sprintf("The call went through: the client accepted URL elicitation %s and retried.", st.ElicitationID), out), nil
}

// askForLink is the input_required result asking the client to open the link
// of elicitation id.
func (d *demo) askForLink(id string) *mcp.CallToolResult {
	state := d.state.seal(requestState{
		Tool:          ToolNeedsLink,
		Input:         linkInput,
		ElicitationID: id,
		Expires:       d.now().Add(stateTTL).Unix(),
	})
	// 2026-07-28 URL elicitations have no elicitationId; the state keeps it.
	return server.NewInputRequestBuilder(state).Elicit(linkInput, mcp.ElicitationParams{
		Mode:    mcp.ElicitationModeURL,
		Message: "This tool needs you to visit a link first. Open it, then the call is retried.",
		URL:     linkURL(id),
	}).ToolResult()
}
