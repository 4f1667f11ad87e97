package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	hostilefile "github.com/elicitdesk/elicitdesk/internal/testkit/hostile"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// hostileEnv makes the test binary, re-run as a child, serve the hostile
// MCP server over stdio; hostileDie as its argument makes it write to
// stderr and exit before the handshake instead.
const (
	hostileEnv = "ELICITDESK_TEST_HOSTILE_SERVER"
	hostileDie = "die"
)

// Tools of the hostile server that the tests call by name.
const (
	hostileAsk  = "ask"  // elicits with a hostile form, returns hostile text
	hostileFail = "fail" // fails with a hostile JSON-RPC error
	hostileLink = "link" // fails with a hostile -32042 link
)

// hostile is the text a hostile server or host sends, from
// testdata/hostile/strings.json at the repository root.
type hostile struct {
	strings []string // sorted by their names in the file
	joined  string   // all of them, for fields that hold one text
}

func loadHostile() (hostile, error) {
	hs, err := hostilefile.Strings()
	if err != nil {
		return hostile{}, err
	}
	var h hostile
	for _, s := range hs {
		h.strings = append(h.strings, s.Text)
	}
	h.joined = strings.Join(h.strings, " | ")
	return h, nil
}

func mustLoadHostile(t *testing.T) hostile {
	t.Helper()
	h, err := loadHostile()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// schema is a requestedSchema whose property names, titles, descriptions,
// formats, defaults and option labels are all hostile. Each property's
// unknown format gives lint a warning whose path holds the name.
func (h hostile) schema() json.RawMessage {
	props := map[string]any{
		"choice": map[string]any{"type": "string", "title": h.joined, "default": "a",
			"oneOf": []any{map[string]any{"const": "a", "title": h.joined}, map[string]any{"const": "b", "title": h.joined}}},
		"legacy": map[string]any{"type": "string", "enum": []string{"x", "y"}, "enumNames": []string{h.joined, h.joined}},
	}
	for _, s := range h.strings {
		props[s] = map[string]any{"type": "string", "title": s, "description": s, "format": s, "default": s}
	}
	raw, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
	return raw
}

// serveHostile runs the hostile MCP server on stdin and stdout: its
// serverInfo, tools, elicitations, results, errors and stderr are hostile.
func serveHostile(args []string) int {
	h, err := loadHostile()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Fprintln(os.Stderr, h.joined)
	if slices.Contains(args, hostileDie) {
		return 1
	}
	srv := server.NewMCPServer(h.joined, h.joined,
		server.WithTitle(h.joined),
		server.WithToolCapabilities(false),
		//lint:ignore SA1019 it asks through elicitation/create, as a 2025 server does
		server.WithLegacyServerInitiatedRequests(),
	)
	srv.AddTool(mcp.NewTool(hostileAsk, mcp.WithDescription(h.joined)),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := srv.RequestElicitation(ctx, mcp.ElicitationRequest{
				Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
				Params:  mcp.ElicitationParams{Mode: mcp.ElicitationModeForm, Message: h.joined, RequestedSchema: h.schema()},
			})
			if err != nil {
				return nil, err
			}
			answer, _ := json.Marshal(res)
			return mcp.NewToolResultText(h.joined + "\n" + string(answer)), nil
		})
	srv.AddTool(mcp.NewTool(hostileFail, mcp.WithDescription(h.joined)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New(h.joined)
		})
	srv.AddTool(mcp.NewTool(hostileLink, mcp.WithDescription(h.joined)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, mcp.URLElicitationRequiredError{Elicitations: []mcp.ElicitationParams{{
				Mode: mcp.ElicitationModeURL, ElicitationID: "1", URL: "https://evil.example/" + h.joined, Message: h.joined,
			}}}
		})
	for _, s := range h.strings {
		srv.AddTool(mcp.NewTool(s, mcp.WithDescription(s)),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultError(s), nil
			})
	}
	if err := server.NewStdioServer(srv).Listen(context.Background(), os.Stdin, os.Stdout); err != nil {
		return 1
	}
	return 0
}
