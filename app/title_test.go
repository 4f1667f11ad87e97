package app

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

func TestTitle(t *testing.T) {
	raw, err := os.ReadFile("testdata/titles.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Name, Server, Machine, Message, URL, Want string }
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			p := servers.Params{Message: untrusted.Text(c.Message), Mode: servers.ModeForm}
			if c.URL != "" {
				p.Mode, p.URL = servers.ModeURL, untrusted.Text(c.URL)
			}
			if got := title(servers.Identity{Name: c.Server, Machine: c.Machine}, p); got != c.Want {
				t.Errorf("title = %q, want %q", got, c.Want)
			}
		})
	}
}
