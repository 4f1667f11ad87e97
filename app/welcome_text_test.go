package app

import (
	"errors"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/servers"
)

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
