package core

import (
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers"
)

func TestBridgedIdentity(t *testing.T) {
	b := endpoint.Bridged{ID: "s", Server: "files", Target: "npx files",
		Reported: endpoint.Peer{Name: "files-mcp", Version: "1"},
		Host:     endpoint.Peer{Name: "claude-ai", Title: "Claude Desktop", Version: "0.9"}, Since: time.Now()}
	want := servers.Identity{Name: "files", Target: "npx files",
		Reported: servers.ServerInfo{Name: "files-mcp", Version: "1"},
		Host:     servers.HostInfo{Name: "claude-ai", Title: "Claude Desktop", Version: "0.9"}}
	if got := BridgedIdentity(b); got != want {
		t.Errorf("BridgedIdentity = %+v, want %+v", got, want)
	}
}
