package app

import (
	"fmt"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/trust"
	"github.com/elicitdesk/elicitdesk/servers"
)

// Lengths of a request window's title, in characters: task switchers show
// about 60 before they cut.
const (
	titleServer  = 24 // the configured server name
	titleMessage = 40 // the first words of the message
)

// title names a request's window after the server that asks and the first
// words of what it asks, cut at a word, so that two windows tell apart in
// the task switcher: "demo: Deploy to production now? — Elicit Desk". A
// request without a message names the link it asks to open, or just the
// server. A title an open window has (taken) gets the first number free:
// the same server asking the same again is "demo: Continue? (2) — Elicit
// Desk", not a second window the person cannot tell from the first.
func title(who servers.Identity, e servers.Params, taken func(string) bool) string {
	name := who.CalledShort(titleServer) // a whole line: no line of a name hides another
	what := e.Message.Headline(titleMessage)
	if what == "" && e.Mode == servers.ModeURL {
		if host := trust.InspectLink(e.URL).Host; host != "" {
			what = "open " + untrusted.Text(host).Headline(titleMessage)
		}
	}
	base := name + " asks"
	if what != "" {
		base = name + ": " + what
	}
	t := base + " — Elicit Desk"
	for n := 2; taken(t); n++ {
		t = fmt.Sprintf("%s (%d) — Elicit Desk", base, n)
	}
	return t
}
