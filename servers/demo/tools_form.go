package demo

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// defaultConfirmMessage is what ask_confirm asks without a message argument.
const defaultConfirmMessage = "Do you want to continue?"

// addFormTools registers the tools that ask in form mode while they run.
func (d *demo) addFormTools() {
	d.srv.AddTool(mcp.NewTool(ToolAskEveryField,
		mcp.WithDescription("Asks for one field of every kind a form may have (text with length limits, email, URI, date, date-time, integer, number, boolean, and all five choice variants), each with a default, and reports the answer."),
		readOnly,
	), d.askEveryField)

	d.srv.AddTool(mcp.NewTool(ToolAskConfirm,
		mcp.WithDescription("Asks for a single yes/no confirmation and reports the answer."),
		mcp.WithString("message", mcp.Description("The question to ask."), mcp.DefaultString(defaultConfirmMessage)),
		readOnly,
	), d.askConfirm)

	d.srv.AddTool(mcp.NewTool(ToolAskTwice,
		mcp.WithDescription("Asks for a name, then, once answered, asks a second question (a choice), and reports both answers."),
		readOnly,
	), d.askTwice)
}

func (d *demo) askEveryField(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if !canAsk(ctx, mcp.ElicitationModeForm) {
		return unsupported(mcp.ElicitationModeForm), nil
	}
	result, err := d.ask(ctx, form("Every kind of field a form can have, each with a default. Change what you like, then accept, decline or cancel.", everyFieldSchema))
	if err != nil {
		return failed(err), nil
	}
	return report("The client "+said(result.Action)+".", answerOf(result)), nil
}

func (d *demo) askConfirm(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if !canAsk(ctx, mcp.ElicitationModeForm) {
		return unsupported(mcp.ElicitationModeForm), nil
	}
	message := req.GetString("message", "")
	if strings.TrimSpace(message) == "" {
		message = defaultConfirmMessage
	}
	result, err := d.ask(ctx, form(message, confirmSchema))
	if err != nil {
		return failed(err), nil
	}
	return report("The client "+said(result.Action)+".", answerOf(result)), nil
}

// twice is what ask_twice reports; Second is absent when the first question
// was not accepted, since then there was no second question.
type twice struct {
	First  answer  `json:"first"`
	Second *answer `json:"second,omitempty"`
}

func (d *demo) askTwice(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if !canAsk(ctx, mcp.ElicitationModeForm) {
		return unsupported(mcp.ElicitationModeForm), nil
	}
	first, err := d.ask(ctx, form("First question: what is your name?", nameSchema))
	if err != nil {
		return failed(err), nil
	}
	out := twice{First: answerOf(first)}
	if first.Action != mcp.ElicitationResponseActionAccept {
		return report(fmt.Sprintf("The client %s the first question, so there was no second.", said(first.Action)), out), nil
	}

	name := "friend"
	if content, ok := first.Content.(map[string]any); ok {
		if s, ok := content["name"].(string); ok && strings.TrimSpace(s) != "" {
			name = s
		}
	}
	second, err := d.ask(ctx, form(fmt.Sprintf("Second question: thanks, %s. What would you like to drink?", name), drinkSchema))
	if err != nil {
		return failed(fmt.Errorf("second question: %w", err)), nil
	}
	secondAnswer := answerOf(second)
	out.Second = &secondAnswer
	return report(fmt.Sprintf("The client accepted the first question and %s the second.", said(second.Action)), out), nil
}
