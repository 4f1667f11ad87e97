package serversview

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// row is one server as the window shows it: its entry in servers.json and
// its connection. The manager follows the file a moment later, so either
// may be missing for a while.
type row struct {
	Name   string
	Entry  config.Server
	InFile bool
	Status servers.Status // State is "" until the manager has the entry
}

// mergeRows lists the servers of the file in file order, each with its
// status. When the file cannot be read (cfg is nil) the manager's servers
// are listed instead, since they keep running as they were. Only the first
// of two entries with one name is listed, as only it runs.
func mergeRows(cfg *config.File, statuses []servers.Status) []row {
	byName := make(map[string]servers.Status, len(statuses))
	for _, s := range statuses {
		byName[s.Name] = s
	}
	if cfg == nil {
		rows := make([]row, 0, len(statuses))
		for _, s := range statuses {
			rows = append(rows, row{Name: s.Name, Status: s})
		}
		return rows
	}
	seen := map[string]bool{}
	rows := make([]row, 0, len(cfg.Servers))
	for _, e := range cfg.Servers {
		if seen[e.Name] {
			continue
		}
		seen[e.Name] = true
		rows = append(rows, row{Name: e.Name, Entry: e, InFile: true, Status: byName[e.Name]})
	}
	return rows
}

// state is where the server stands, guessing from the entry until the
// manager reports: it is about to connect, or to show the entry failed or
// disabled.
func (r row) state() servers.State {
	switch {
	case r.Status.State != "":
		return r.Status.State
	case r.Entry.Err != nil:
		return servers.StateFailed
	case r.Entry.Disabled:
		return servers.StateDisabled
	}
	return servers.StateConnecting
}

// problem is why the server cannot be used or failed, or nil.
func (r row) problem() error {
	if r.Entry.Err != nil {
		return r.Entry.Err
	}
	return r.Status.Err
}

// target is the configured command line or URL.
// connectsBy says how Elicit Desk reaches the server, which only its
// entry in servers.json says.
func (r row) connectsBy() string {
	if !r.InFile {
		return "Not known while servers.json cannot be read"
	}
	return transportText(r.Entry.Transport)
}

func (r row) target() string {
	if r.InFile {
		return r.Entry.Target()
	}
	return r.Status.Identity.Target
}

// lightColor is the colour of a state's status light: green ready, amber
// connecting or waiting for a sign-in, red failed, grey stopped or disabled.
func lightColor(s servers.State) fyne.ThemeColorName {
	switch s {
	case servers.StateReady:
		return theme.ColorNameSuccess
	case servers.StateConnecting, servers.StateNeedsSignIn:
		return theme.ColorNameWarning
	case servers.StateFailed:
		return theme.ColorNameError
	}
	return theme.ColorNameDisabled
}

// stateLabel is a state in words, for the list.
func stateLabel(s servers.State) string {
	switch s {
	case servers.StateReady:
		return "Ready"
	case servers.StateConnecting:
		return "Connecting…"
	case servers.StateFailed:
		return "Failed"
	case servers.StateNeedsSignIn:
		return "Sign in needed"
	case servers.StateStopped:
		return "Stopped"
	case servers.StateDisabled:
		return "Disabled"
	}
	return string(s)
}

// stateText is the state with the time it began, for the detail.
func (r row) stateText(now time.Time) string {
	label := stateLabel(r.state())
	if r.Status.Since.IsZero() {
		return label
	}
	return label + " since " + sinceText(r.Status.Since, now)
}

// sinceText is a moment as short as it can be said unambiguously: the time
// alone today, with the day this year, in full otherwise.
func sinceText(t, now time.Time) string {
	t = t.In(now.Location())
	switch {
	case t.YearDay() == now.YearDay() && t.Year() == now.Year():
		return t.Format("15:04:05")
	case t.Year() == now.Year():
		return t.Format("2 Jan 15:04")
	}
	return t.Format("2 Jan 2006 15:04")
}

// protocolText is the negotiated revision and whether it was pinned. The
// status keeps the last revision after a failure, so only a ready server's
// counts.
func (r row) protocolText() string {
	pin, got := r.Entry.ProtocolVersion, ""
	if r.state() == servers.StateReady {
		got = r.Status.Protocol
	}
	switch {
	case got != "" && pin != "":
		return got + " (pinned)"
	case got != "":
		return got + " (negotiated)"
	case pin != "":
		return "Pinned to " + pin + "; not connected"
	}
	return "Not connected"
}

// transportText names how the server is reached.
func transportText(t config.Transport) string {
	switch t {
	case config.TransportStdio:
		return "Local command (stdio)"
	case config.TransportHTTP:
		return "Streamable HTTP"
	case config.TransportSSE:
		return "HTTP with SSE (older)"
	}
	return string(t)
}
