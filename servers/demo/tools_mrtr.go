package demo

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// colorInput is the inputRequests key of the input_required tool's question.
const colorInput = "color"

// addInputRequiredTool registers input_required.
func (d *demo) addInputRequiredTool() {
	d.srv.AddTool(mcp.NewTool(ToolInputRequired,
		mcp.WithDescription(`The 2026-07-28 multi round-trip pattern: the first call returns resultType "input_required" with one form elicitation in inputRequests and a requestState; the retry carrying inputResponses and that requestState gets the final result, echoing the answer. A retry with any other requestState is an error. For clients before 2026-07-28, mcp-go asks with elicitation/create instead and retries by itself.`),
		readOnly,
	), d.inputRequired)
}

func (d *demo) inputRequired(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if !canAsk(ctx, mcp.ElicitationModeForm) {
		return unsupported(mcp.ElicitationModeForm), nil
	}
	p := req.Params.MultiRoundTripParams
	if p.RequestState == "" && len(p.InputResponses) == 0 {
		return d.askForColor(), nil
	}
	// A retry: the state must be one we issued to this tool, unaltered and
	// recent. A JSON-RPC error says so (mcp-go sends handler errors as -32603).
	st, err := d.state.open(p.RequestState, ToolInputRequired, d.now())
	if err != nil {
		return nil, err
	}
	got := server.ElicitationResponse(p.InputResponses, st.Input)
	if got == nil {
		// The spec asks for the missing input again rather than failing.
		return d.askForColor(), nil
	}
	headline := fmt.Sprintf("The client %s the input request, and the retry carried the requestState it was given.", said(got.Action))
	if !isModern(ctx) {
		headline = fmt.Sprintf("The client %s the question; before 2026-07-28 mcp-go asks with elicitation/create and retries the call on the client's behalf.", said(got.Action))
	}
	return report(headline, answerOf(got)), nil
}

// askForColor is the input_required result: one form elicitation and the
// signed state the retry must echo.
func (d *demo) askForColor() *mcp.CallToolResult {
	state := d.state.seal(requestState{
		Tool:    ToolInputRequired,
		Input:   colorInput,
		Expires: d.now().Add(stateTTL).Unix(),
	})
	return server.NewInputRequestBuilder(state).
		Elicit(colorInput, form("Multi round-trip: pick a colour. The client sends the answer by retrying the tool call.", colorSchema)).
		ToolResult()
}
