package config

import (
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/cmdline"
)

func TestTarget(t *testing.T) {
	tests := []struct {
		name string
		s    Server
		want string
	}{
		{"plain", Server{Command: "npx", Args: []string{"-y", "@scope/server@1.2", "--port=8080"}}, "npx -y @scope/server@1.2 --port=8080"},
		{"spaces", Server{Command: "/opt/My App/server", Args: []string{"a b"}}, cmdline.Join([]string{"/opt/My App/server", "a b"})},
		{"empty arg", Server{Command: "run", Args: []string{""}}, cmdline.Join([]string{"run", ""})},
		{"env left out", Server{Command: "srv", Env: map[string]string{"TOKEN": "secret"}}, "srv"},
		{"remote", Server{URL: "https://example.com/mcp?a=1&b=2", Headers: map[string]string{"Authorization": "x"}}, "https://example.com/mcp?a=1&b=2"},
		{"nothing", Server{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Target(); got != tt.want {
				t.Errorf("Target() = %s, want %s", got, tt.want)
			}
		})
	}
}
