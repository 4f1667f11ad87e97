package app

import (
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/core"
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
		if got := (servers.Identity{Name: "everything", Host: tc.host}).AsksFor(); got != tc.want {
			t.Errorf("AsksFor of %+v = %q, want %q", tc.host, got, tc.want)
		}
	}
	if got := (servers.Identity{Name: "everything", Host: servers.HostInfo{Name: "claude-code"}, Machine: "devbox"}).AsksFor(); got != "on devbox, for Claude Code" {
		t.Errorf("a server on another machine: %q", got)
	}
	// The machine stays in sight, however the host pads its name.
	padded := servers.HostInfo{Name: "claude-code", Title: untrusted.Text("Claude Code (local)" + strings.Repeat("\u2003", 80) + "z")}
	if got := (servers.Identity{Name: "demo", Host: padded, Machine: "devbox"}).AsksFor(); !strings.HasPrefix(got, "on devbox, for Claude Code (local)") {
		t.Errorf("a padded host's line: %q", got)
	}
}

// TestLostWithout: a bridged request's window says when its host would
// have lost the person's answer without the bridge; a request of the
// person's own servers, or a form the host shows, says nothing.
func TestLostWithout(t *testing.T) {
	form, err := forms.Parse([]byte(`{"type":"object","properties":{"n":{"type":"number"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	ask := func(host servers.HostInfo) *request {
		return &request{Request: core.Request{Server: servers.Identity{Name: "everything", Host: host}}, Params: servers.Params{Form: form}}
	}
	if got := lostWithout(ask(servers.HostInfo{Name: "codex-mcp-client"})); !strings.Contains(got, "Codex would show only approve or decline") {
		t.Errorf("through Codex: %q", got)
	}
	for _, host := range []servers.HostInfo{{}, {Name: "claude-code"}, {Name: "a host never recorded"}} {
		if got := lostWithout(ask(host)); got != "" {
			t.Errorf("%+v: %q", host, got)
		}
	}
}
