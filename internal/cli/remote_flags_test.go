package cli

import (
	"flag"
	"io"
	"maps"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// TestRemoteFlags: the bridge's flags for a routed remote entry, and the
// mistakes they refuse.
func TestRemoteFlags(t *testing.T) {
	env := map[string]string{"Authorization": "Bearer from-env", "ELICITDESK_HEADER_X-Api-Key": "routed", "X-Api-Key": "not this one"}
	remote := config.Server{URL: "https://x.example/mcp", Transport: config.TransportHTTP, Headers: map[string]string{"X-Conf": "1"}}
	tests := []struct {
		name    string
		args    []string
		cfg     config.Server
		want    config.Server
		wantErr string
	}{
		{"none", nil, remote, remote, ""},
		{"headers join the configured ones", []string{"-header", "X-One: a b ", "-header-env", "Authorization"}, remote,
			config.Server{URL: remote.URL, Transport: config.TransportHTTP, Headers: map[string]string{"X-Conf": "1", "X-One": "a b", "Authorization": "Bearer from-env"}}, ""},
		{"a header replaces its spelling in another case", []string{"-header-env", "Authorization"},
			config.Server{URL: remote.URL, Transport: config.TransportHTTP, Headers: map[string]string{"authorization": "Bearer conf"}},
			config.Server{URL: remote.URL, Transport: config.TransportHTTP, Headers: map[string]string{"Authorization": "Bearer from-env"}}, ""},
		{"a routed entry's header from its prefixed variable", []string{"-header-env", "X-Api-Key"}, remote,
			config.Server{URL: remote.URL, Transport: config.TransportHTTP, Headers: map[string]string{"X-Conf": "1", "X-Api-Key": "routed"}}, ""},
		{"sse by the host's name", []string{"-transport", "sse"}, remote, config.Server{URL: remote.URL, Transport: config.TransportSSE, Headers: remote.Headers}, ""},
		{"streamable-http", []string{"-transport", "streamable-http"}, remote, remote, ""},
		{"an unknown transport", []string{"-transport", "websocket"}, remote, config.Server{}, `-transport "websocket" is none of`},
		{"-sse against -transport http", []string{"-transport", "http"}, config.Server{URL: remote.URL, Transport: config.TransportSSE}, config.Server{}, "disagree"},
		{"a header for a stdio server", []string{"-header", "A: b"}, config.Server{Command: "x", Transport: config.TransportStdio}, config.Server{}, "are for a remote server"},
		{"a header the environment lacks", []string{"-header-env", "X-Missing"}, remote, config.Server{}, "the environment has neither ELICITDESK_HEADER_X-Missing nor X-Missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("bridge", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			r := addRemoteFlags(fs, &target{})
			r.getenv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			cfg := tt.cfg
			cfg.Headers = maps.Clone(tt.cfg.Headers)
			err := r.apply(&cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("apply: %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || cfg.Transport != tt.want.Transport || !maps.Equal(cfg.Headers, tt.want.Headers) {
				t.Errorf("apply: %v, %+v; want %+v", err, cfg, tt.want)
			}
		})
	}
	for _, bad := range []string{"NoColon", ": empty name", "Two Words: x"} {
		if err := new(headerList).Set(bad); err == nil {
			t.Errorf("-header %q was taken", bad)
		}
	}
}
