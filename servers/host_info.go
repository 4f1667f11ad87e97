package servers

import (
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// HostInfo is what a host (an MCP client) reports about itself in
// clientInfo: the host a bridged server asks for. Many hosts send only a
// name made for machines, such as "gemini-cli-mcp-client", so a host is
// shown by its own title, else by the name people know it by (HostName),
// else by the name as sent.
type HostInfo struct {
	Name    untrusted.Text `json:"name"`
	Title   untrusted.Text `json:"title,omitempty"`
	Version untrusted.Text `json:"version,omitempty"`
}

// Label is the name to call the host by, safe to show: its title, else
// the name HostName knows its name by, else its name; "" when it gave
// neither.
func (h HostInfo) Label() string {
	if h.Title != "" {
		return h.Title.Line()
	}
	if known := HostName(string(h.Name)); known != "" {
		return known
	}
	return h.Name.Line()
}

// String is the host on one line, safe to show: "Label (name) version",
// the name left out when it is the label; "" when the host said nothing.
func (h HostInfo) String() string {
	var parts []string
	if label := h.Label(); label != "" {
		parts = append(parts, label)
		if h.Name != "" && label != h.Name.Line() {
			parts = append(parts, "("+h.Name.Line()+")")
		}
	}
	if h.Version != "" {
		parts = append(parts, h.Version.Line())
	}
	return strings.Join(parts, " ")
}

// HostName is the name people know a host by whose clientInfo.name is
// name, as the host sends it (case aside); "" for a name it does not know.
// The names are the ones the hosts were seen to send.
func HostName(name string) string {
	switch strings.ToLower(name) {
	case "claude-code":
		return "Claude Code"
	case "claude-ai":
		return "Claude Desktop"
	case "codex-mcp-client", "codex":
		return "Codex"
	case "gemini-cli-mcp-client":
		return "Gemini CLI"
	case "copilot-cli", "github-copilot-developer":
		return "GitHub Copilot CLI"
	case "inspector-cli", "mcp-inspector":
		return "MCP Inspector"
	case "opencode":
		return "opencode"
	case "cursor-vscode":
		return "Cursor"
	case "visual studio code", "visual-studio-code":
		return "VS Code"
	case "windsurf-client":
		return "Windsurf"
	case "zed":
		return "Zed"
	case "goose":
		return "Goose"
	case "continue-cli-client":
		return "Continue"
	}
	return ""
}
