package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/servers"
)

func TestFirstRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "elicitdesk", "servers.json")
	if !firstRun(path) {
		t.Error("no servers.json is not a first run")
	}
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, []byte(`{"mcpServers":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if firstRun(path) {
		t.Error("firstRun with servers.json there, even one with no servers")
	}
}

func TestWelcomeTexts(t *testing.T) {
	if !strings.Contains(whereRequests(true), "system tray") || strings.Contains(whereRequests(false), "tray") {
		t.Errorf("where requests: %q / %q", whereRequests(true), whereRequests(false))
	}
	for _, c := range []struct {
		res  *servers.ToolResult
		err  error
		want string
	}{
		{&servers.ToolResult{}, nil, "Done: the demo server has your answer"},
		{&servers.ToolResult{IsError: true}, nil, "The demo server could not ask"},
		{nil, errors.New("server \"demo\" is not connected\u202e"), "The demo request did not reach you: server \"demo\" is not connected⟨U+202E⟩"},
	} {
		if got := demoOutcome(c.res, c.err); !strings.HasPrefix(got, c.want) {
			t.Errorf("demoOutcome(%v, %v) = %q, want %q…", c.res, c.err, got, c.want)
		}
	}
}
