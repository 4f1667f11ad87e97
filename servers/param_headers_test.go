package servers

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// markedTools lists a tool whose region is mirrored into Mcp-Param-Region
// and one whose mark is not a header name (which mcp-go's own server
// refuses to list).
const markedTools = `[
	{"name":"route","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"query":{"type":"string"}}}},
	{"name":"bad","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"My Region"}}}}]`

// otherTools is a page of one unmarked tool, before markedTools in a paged
// listing.
const otherTools = `[{"name":"other","inputSchema":{"type":"object","properties":{"region":{"type":"string"}}}}]`

// TestCallMirrorsParamHeaders is the regression for SEP-2243 over
// Streamable HTTP: a call made before any listing, as `elicitdesk call`
// makes them, carries its tool's x-mcp-header arguments as Mcp-Param-*
// headers (mcp-go v1.2.1 sent none), listing page by page only until it
// finds its tool; a tool whose mark breaks the rules is not called at all,
// and a tool the server doesn't list, or a listing that fails, leaves the
// call to go without headers.
func TestCallMirrorsParamHeaders(t *testing.T) {
	one := newToolServer(t, markedTools)
	paged := newToolServer(t, otherTools, markedTools)
	failing := newToolServer(t)
	tests := []struct {
		name    string
		srv     *toolServer
		version string
		tool    string
		args    map[string]any
		want    http.Header // of the tools/call; nil: none sent
		err     string
		lists   int // tools/list requests the call made
	}{
		{"annotated", one, "", "route", map[string]any{"region": "eu-west1", "query": "q"}, http.Header{"Mcp-Param-Region": {"eu-west1"}, "Mcp-Param-Query": nil}, "", 1},
		{"non-ASCII value", one, "", "route", map[string]any{"region": "Zürich"}, http.Header{"Mcp-Param-Region": {"=?base64?WsO8cmljaA==?="}}, "", 1},
		{"argument left out", one, "", "route", map[string]any{}, http.Header{"Mcp-Param-Region": nil}, "", 1},
		{"mark not a header name", one, "", "bad", map[string]any{"region": "eu-west1"}, nil, "x-mcp-header marks break the rules", 1},
		{"unknown tool", one, "", "nowhere", map[string]any{"region": "eu-west1"}, http.Header{"Mcp-Param-Region": nil}, "", 1},
		{"on the second page", paged, "", "route", map[string]any{"region": "eu-west1"}, http.Header{"Mcp-Param-Region": {"eu-west1"}}, "", 2},
		{"on the first page", paged, "", "other", map[string]any{"region": "eu-west1"}, http.Header{"Mcp-Param-Region": nil}, "", 1},
		{"refused on the second page", paged, "", "bad", nil, nil, "x-mcp-header marks break the rules", 2},
		{"listing fails", failing, "", "route", map[string]any{"region": "eu-west1"}, http.Header{"Mcp-Param-Region": nil}, "", 1},
		{"before 2026-07-28", one, "2025-11-25", "route", map[string]any{"region": "eu-west1"}, http.Header{"Mcp-Param-Region": nil}, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c := dialTools(ctx, t, tt.srv, tt.version)
			before, lists := len(tt.srv.Calls()), tt.srv.Lists()
			_, err := c.CallTool(ctx, tt.tool, tt.args)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("error %v, want one saying %q", err, tt.err)
			}
			if got := tt.srv.Lists() - lists; got != tt.lists {
				t.Errorf("%d tools/list sent, want %d", got, tt.lists)
			}
			sent := tt.srv.Calls()[before:]
			if tt.want == nil {
				if len(sent) != 0 {
					t.Fatalf("%d tools/call sent, want none", len(sent))
				}
				return
			}
			if len(sent) != 1 {
				t.Fatalf("%d tools/call sent, want 1", len(sent))
			}
			for name, want := range tt.want {
				if got := sent[0].Values(name); strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("%s: %q, want %q", name, got, want)
				}
			}
		})
	}
}

// TestOneListingServesCalls: the listing that Tools makes, or the first
// call makes, tells every later call on the connection its tool's marks,
// so calls don't list again; a refused tool stays refused without listing.
func TestOneListingServesCalls(t *testing.T) {
	srv := newToolServer(t, markedTools)
	for _, first := range []string{"Tools", "CallTool"} {
		t.Run(first, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c := dialTools(ctx, t, srv, "")
			lists, calls := srv.Lists(), len(srv.Calls())
			if first == "Tools" {
				if _, err := c.Tools(ctx); err != nil {
					t.Fatal(err)
				}
			}
			for _, region := range []string{"eu-west1", "us-east1"} {
				if _, err := c.CallTool(ctx, "route", map[string]any{"region": region}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := c.CallTool(ctx, "bad", nil); err == nil {
				t.Error("bad called")
			}
			if got := srv.Lists() - lists; got != 1 {
				t.Errorf("%d tools/list sent, want 1", got)
			}
			sent := srv.Calls()[calls:]
			if len(sent) != 2 || sent[0].Get("Mcp-Param-Region") != "eu-west1" || sent[1].Get("Mcp-Param-Region") != "us-east1" {
				t.Errorf("calls sent with headers %v, want 2 with Mcp-Param-Region eu-west1, us-east1", sent)
			}
		})
	}
}

// dialTools connects to srv over Streamable HTTP at protocol version, or
// the newest when it is "".
func dialTools(ctx context.Context, t *testing.T, srv *toolServer, version string) *Conn {
	t.Helper()
	c, err := Dial(ctx, config.Server{Name: "params", URL: srv.URL, Transport: config.TransportHTTP, ProtocolVersion: version}, NewRouter(DefaultLimits, quietLog()), quietLog())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
