package app

import (
	"testing"

	"github.com/elicitdesk/elicitdesk/servers"
)

// TestHostLine: a request window names the host a bridged server asks
// for as people know it, not by the name it sends machines.
func TestHostLine(t *testing.T) {
	for _, tc := range []struct {
		host servers.HostInfo
		want string
	}{
		{servers.HostInfo{}, ""},
		{servers.HostInfo{Name: "claude-code", Title: "Claude Code"}, "for Claude Code"},
		{servers.HostInfo{Name: "gemini-cli-mcp-client"}, "for Gemini CLI"},
		{servers.HostInfo{Name: "copilot-cli"}, "for GitHub Copilot CLI"},
		{servers.HostInfo{Name: "inspector-cli"}, "for MCP Inspector"},
		{servers.HostInfo{Name: "opencode"}, "for opencode"},
		{servers.HostInfo{Name: "my\u202eagent"}, "for my⟨U+202E⟩agent"},
		{servers.HostInfo{Version: "1.0"}, "for a host that gave no name"},
	} {
		if got := hostLine(servers.Identity{Name: "everything", Host: tc.host}); got != tc.want {
			t.Errorf("hostLine(%+v) = %q, want %q", tc.host, got, tc.want)
		}
	}
}
