package core

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers"
)

// TestEndpointError checks that a refusal reaches the bridge whole, and
// other failures stay as they are.
func TestEndpointError(t *testing.T) {
	plain := errors.New("no window")
	tests := []struct {
		name string
		err  error
		want *endpoint.Error // nil: err unchanged
	}{
		{"none", nil, nil},
		{"plain", plain, nil},
		{"refusal with data", &jsonrpc.Error{Code: -32602, Message: "requestedSchema: 1 problem", Data: []byte(`{"problems":["x"]}`)},
			&endpoint.Error{Code: -32602, Message: "requestedSchema: 1 problem", Data: []byte(`{"problems":["x"]}`)}},
		{"wrapped refusal", fmt.Errorf("asking: %w", &jsonrpc.Error{Code: -32602, Message: "no message"}),
			&endpoint.Error{Code: -32602, Message: "no message"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := endpointError(tt.err)
			if tt.want == nil {
				if got != tt.err {
					t.Errorf("endpointError(%v) = %v, want it unchanged", tt.err, got)
				}
				return
			}
			var e *endpoint.Error
			if !errors.As(got, &e) || e.Code != tt.want.Code || e.Message != tt.want.Message || string(e.Data) != string(tt.want.Data) {
				t.Errorf("endpointError = %#v, want %#v", got, tt.want)
			}
		})
	}
}

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
