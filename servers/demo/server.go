// Package demo is the built-in demo MCP server, run by `elicitdesk
// demo-server`. Each of its tools exercises one elicitation feature, so that
// Elicit Desk (or any other client) can be tried against all of them: a form
// with every kind of field, a confirmation, two questions in a row, a request
// the server cancels itself, URL mode with its completion notification, the
// -32042 URLElicitationRequiredError, and the 2026-07-28 multi round-trip
// ("input_required") pattern.
//
// Every tool answers with a text result that states exactly what the client
// answered (action and content as JSON); the same object is the result's
// structuredContent.
package demo

import (
	"context"
	"time"

	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Identity of the demo server, as reported in serverInfo.
const (
	Name    = "elicitdesk-demo"
	Title   = "Elicit Desk demo server"
	Version = "0.1.0"
)

// Tool names. Other code and tests call the tools by these names.
const (
	ToolAskEveryField = "ask_every_field"
	ToolAskConfirm    = config.DemoTry
	ToolAskTwice      = "ask_twice"
	ToolAskThenGiveUp = "ask_then_give_up"
	ToolOpenLink      = "open_link"
	ToolNeedsLink     = "needs_link"
	ToolInputRequired = "input_required"
)

// demo holds what the tools share. It lives as long as the MCPServer that
// NewServer returns; nothing is kept at package level.
type demo struct {
	srv   *server.MCPServer
	state stateSealer // signs the requestState of multi round-trip results
	links *linkBook   // needs_link: which sessions have been sent a link
	now   func() time.Time
}

// NewServer returns the demo MCP server (name "elicitdesk-demo", title "Elicit
// Desk demo server", version Version) with all its tools registered.
//
// The server speaks every protocol revision mcp-go v1.2.1 does, choosing per
// request. The tools that send elicitation/create while they run keep doing so
// for clients on 2026-07-28, which replaced such server-initiated requests with
// input_required results: showing those requests is what this server is for.
// That works over stdio and in process, not over stateless HTTP.
func NewServer() *server.MCPServer {
	d := &demo{
		state: newStateSealer(),
		links: newLinkBook(),
		now:   time.Now,
	}
	hooks := &server.Hooks{}
	hooks.AddOnUnregisterSession(func(_ context.Context, s server.ClientSession) {
		d.links.take(s.SessionID())
	})
	d.srv = server.NewMCPServer(Name, Version,
		server.WithTitle(Title),
		server.WithInstructions("Each tool asks the client something through elicitation and reports exactly what came back."),
		server.WithToolCapabilities(false),
		server.WithRecovery(),
		server.WithHooks(hooks),
		// Deprecated in mcp-go for 2026-07-28 clients; see the doc comment.
		//lint:ignore SA1019 the demo asks clients of the legacy revisions too
		server.WithLegacyServerInitiatedRequests(),
	)
	d.addFormTools()
	d.addGiveUpTool()
	d.addURLTools()
	d.addInputRequiredTool()
	return d.srv
}

// readOnly marks a demo tool as changing nothing: each only asks and
// reports. mcp-go's NewTool calls every tool destructive unless told, which
// beside readOnlyHint would contradict it.
func readOnly(t *mcp.Tool) {
	mcp.WithReadOnlyHintAnnotation(true)(t)
	mcp.WithDestructiveHintAnnotation(false)(t)
}
