package app

import (
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

// welcomeIntro says what Elicit Desk is for, in the Welcome window.
const welcomeIntro = "MCP servers sometimes need a person's answer: a confirmation, a choice, a few details. " +
	"Elicit Desk shows each such request in a window like this one, whichever app started the server, " +
	"and keeps a history of what was asked and answered."

// welcomeRemote says that hosts on other machines can ask here too, and
// where to start: the command prints the ssh line (Help and the README say
// the rest).
const welcomeRemote = "A host on another machine you reach with ssh can ask here too: " +
	"run “elicitdesk remote USER@HOST” in a terminal for the ssh line that lets it."

// whereRequests says where requests show up and how to reach the app's
// windows, which depends on whether there is a tray icon.
func whereRequests(tray bool) string {
	if tray {
		return "A request opens its window at once. The menu of the Elicit Desk icon in the system tray lists the requests waiting, " +
			"and opens Hosts, Servers, History and this window again. Where the tray shows no menus, " +
			"a click on the icon brings forward the oldest request waiting, or opens Servers, whose menu has the same entries."
	}
	return "A request opens its window at once. The Elicit Desk menu of the Servers window " +
		"opens Hosts, History and this window again."
}

// demoOutcome is what the Welcome window says once the demo request is over.
func demoOutcome(res *servers.ToolResult, err error) string {
	switch {
	case err != nil:
		return "The demo request did not reach you: " + untrusted.Text(err.Error()).Line()
	case res != nil && res.IsError:
		return "The demo server could not ask: see the Servers window."
	}
	return "Done: the demo server has your answer, and the History window lists it."
}
