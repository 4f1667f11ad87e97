package app

import (
	"encoding/json"
	"os"
	"slices"
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
			if got := title(servers.Identity{Name: c.Server, Machine: c.Machine}, p, none); got != c.Want {
				t.Errorf("title = %q, want %q", got, c.Want)
			}
		})
	}
}

// none is a taken that finds no title taken.
func none(string) bool { return false }

// TestTitleNumbered checks that a title an open window has is numbered,
// with the first number free.
func TestTitleNumbered(t *testing.T) {
	who := servers.Identity{Name: "demo"}
	p := servers.Params{Message: "Continue?", Mode: servers.ModeForm}
	open := map[string]bool{}
	taken := func(t string) bool { return open[t] }
	var got []string
	for range 3 {
		tt := title(who, p, taken)
		open[tt] = true
		got = append(got, tt)
	}
	want := []string{"demo: Continue? — Elicit Desk", "demo: Continue? (2) — Elicit Desk", "demo: Continue? (3) — Elicit Desk"}
	if !slices.Equal(got, want) {
		t.Errorf("titles %q, want %q", got, want)
	}
	delete(open, want[1]) // the second window closed: its number is free again
	if tt := title(who, p, taken); tt != want[1] {
		t.Errorf("with the second closed: %q, want %q", tt, want[1])
	}
}
