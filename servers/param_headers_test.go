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

// TestCallMirrorsParamHeaders is the regression for SEP-2243 over
// Streamable HTTP: a call made before any listing, as `elicitdesk call`
// makes them, carries its tool's x-mcp-header arguments as Mcp-Param-*
// headers (mcp-go v1.2.1 sent none), and a tool whose mark breaks the
// rules is not called at all.
func TestCallMirrorsParamHeaders(t *testing.T) {
	srv := newToolServer(t, markedTools)
	tests := []struct {
		name, version, tool string
		args                map[string]any
		want                http.Header // of the tools/call; nil: none sent
		err                 string
	}{
		{"annotated", "", "route", map[string]any{"region": "eu-west1", "query": "q"}, http.Header{"Mcp-Param-Region": {"eu-west1"}, "Mcp-Param-Query": nil}, ""},
		{"non-ASCII value", "", "route", map[string]any{"region": "Zürich"}, http.Header{"Mcp-Param-Region": {"=?base64?WsO8cmljaA==?="}}, ""},
		{"argument left out", "", "route", map[string]any{}, http.Header{"Mcp-Param-Region": nil}, ""},
		{"mark not a header name", "", "bad", map[string]any{"region": "eu-west1"}, nil, "lists no tool"},
		{"unknown tool", "", "nowhere", nil, nil, "lists no tool"},
		{"before 2026-07-28", "2025-11-25", "route", map[string]any{"region": "eu-west1"}, http.Header{"Mcp-Param-Region": nil}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c, err := Dial(ctx, config.Server{Name: "params", URL: srv.URL, Transport: config.TransportHTTP, ProtocolVersion: tt.version}, NewRouter(DefaultLimits, quietLog()), quietLog())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			before := len(srv.Calls())
			_, err = c.CallTool(ctx, tt.tool, tt.args)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("error %v, want one saying %q", err, tt.err)
			}
			sent := srv.Calls()[before:]
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
