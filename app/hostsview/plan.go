package hostsview

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// planView is what a plan changes, as the confirm dialog shows it.
type planView struct {
	Title   string // the dialog's heading
	Intro   string
	Changes []changeView
	Skipped []skipView
	Verb    string // the confirm button's text
}

type changeView struct{ Name, From, To string }

type skipView struct{ Name, Reason string }

// routing says whether p routes (or unroutes) its servers.
func describePlan(p *hosts.Plan, routing bool) planView {
	host := p.Config.Host.Name
	what, these, their := host+"'s servers", "these servers", "their"
	if len(p.Changes) == 1 {
		what, these, their = untrusted.Text(p.Changes[0].Server).Quote(), "this server", "its"
	}
	limits := slices.ContainsFunc(p.Changes, func(c hosts.Change) bool { return c.Limit != "" })
	changes := "Only the command lines change"
	if limits {
		changes += fmt.Sprintf(", and the time %s waits for a call, which becomes %d minutes so that you have time to answer", host, hosts.LimitSeconds/60)
	}
	v := planView{
		Title: "Route " + what + " through Elicit Desk?",
		Intro: host + " will start " + these + " through Elicit Desk, which shows " + their + " requests as windows. " + changes + "; the servers stay the same.",
		Verb:  "Change " + host + "'s config",
	}
	if !routing {
		v.Title = "Stop routing " + what + " through Elicit Desk?"
		v.Intro = host + " will start " + these + " itself again, and show " + their + " requests itself."
		if limits {
			v.Intro += " The time it waits for a call goes back to what it was."
		}
	}
	if routing && slices.ContainsFunc(p.Changes, func(c hosts.Change) bool { return remote(p.Config, c.Server) }) {
		v.Intro += " When a remote server asks " + host + " to sign in, Elicit Desk signs in for it, in your browser."
	}
	if len(p.Changes) == 0 {
		v.Intro = "Nothing to change in " + host + "'s config."
		v.Verb = ""
	}
	for _, c := range p.Changes {
		v.Changes = append(v.Changes, changeView{untrusted.Text(c.Server).Line(), commandLine(c.From), commandLine(c.To)})
	}
	for _, s := range p.Skipped {
		v.Skipped = append(v.Skipped, skipView{untrusted.Text(s.Server).Line(), untrusted.Text(s.Reason).Line()})
	}
	return v
}

// remote reports whether c's server called name is a remote one.
func remote(c *hosts.Config, name string) bool {
	s, _ := c.Server(name)
	return s.Transport != config.TransportStdio
}

// commandLine is argv as a shell would take it, safe to show.
func commandLine(argv []string) string {
	return untrusted.Text(config.CommandLine(argv)).Line()
}

// applied is what to tell the person once a plan is written.
func applied(host, backup string) string {
	return "Restart " + host + " so it picks up the change.\n\nThe config as it was is kept in " + untrusted.Text(backup).Line()
}

// applyError says in plain words why nothing was written.
func applyError(host string, err error) string {
	if errors.Is(err, hosts.ErrChanged) {
		return host + "'s config changed while you were looking, so nothing was written and that change is kept. The list now shows the config as it is: look again and retry."
	}
	msg := untrusted.Text(err.Error()).Block()
	if !strings.Contains(msg, "nothing was changed") {
		msg += "\n\nNothing was changed."
	}
	return "The config of " + host + " was not changed:\n" + msg
}
