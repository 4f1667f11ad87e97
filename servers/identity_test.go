package servers

import "testing"

func TestIdentity(t *testing.T) {
	tests := []struct {
		name string
		s    ServerConfig
		want string
	}{
		{"plain", ServerConfig{Command: "npx", Args: []string{"-y", "@scope/server@1.2", "--port=8080"}}, "npx -y @scope/server@1.2 --port=8080"},
		{"spaces", ServerConfig{Command: "/opt/My App/server", Args: []string{"a b"}}, "'/opt/My App/server' 'a b'"},
		{"quote", ServerConfig{Command: "echo", Args: []string{"it's"}}, `echo 'it'\''s'`},
		{"empty arg", ServerConfig{Command: "run", Args: []string{""}}, "run ''"},
		{"shell chars", ServerConfig{Command: "sh", Args: []string{"-c", "echo $HOME; ls *"}}, "sh -c 'echo $HOME; ls *'"},
		{"env left out", ServerConfig{Command: "srv", Env: map[string]string{"TOKEN": "secret"}}, "srv"},
		{"remote", ServerConfig{URL: "https://example.com/mcp?a=1&b=2", Headers: map[string]string{"Authorization": "x"}}, "https://example.com/mcp?a=1&b=2"},
		{"nothing", ServerConfig{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Identity(); got != tt.want {
				t.Errorf("Identity() = %s, want %s", got, tt.want)
			}
		})
	}
}
