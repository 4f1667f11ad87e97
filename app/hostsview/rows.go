package hostsview

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
)

// runsWidth is how many characters of a command line or URL a row shows.
const runsWidth = 90

// hostRow is a host as the view shows it. Every string is safe to show:
// what came from the host's file went through untrusted's views.
type hostRow struct {
	ID, Name string
	Path     string
	Err      string // why the config cannot be read; then there are no servers
	ReadOnly string // why the host is listed but never edited; then there are no servers
	Servers  []serverRow
	// Routable counts the servers Route all would change.
	Routable int
}

// switchState is a server's "Through Elicit Desk" switch.
type switchState int

const (
	switchNone switchState = iota // no switch: the entry cannot be routed
	switchOff
	switchOn
)

// serverRow is one server of a host.
type serverRow struct {
	Name      string // for showing
	Key       string // the entry's name as in the file, to plan with
	Transport string
	Runs      string // the command line or URL, shortened
	Switch    switchState
	Note      string // why there is no switch
	Broken    bool   // Note is the entry's error
}

// hostRows lists each found host with its servers. A server routed through
// another elicitdesk binary shows as routed: the bridge is ours either way.
func hostRows(found []hosts.Found, bin hosts.Binaries) []hostRow {
	rows := make([]hostRow, 0, len(found))
	for _, f := range found {
		r := hostRow{ID: f.Host.ID, Name: Title(f.Host), Path: untrusted.Text(f.Host.Config).Line()}
		if reason, ok := hosts.ReadOnlyReason(f.Err); ok {
			r.ReadOnly = reason // Elicit Desk's own words
			rows = append(rows, r)
			continue
		}
		if f.Err != nil {
			r.Err = untrusted.Text(f.Err.Error()).Block()
			rows = append(rows, r)
			continue
		}
		r.Path = untrusted.Text(f.Config.Path).Line()
		if p := f.Host.Project; p != "" {
			r.Path += ", the servers of the project " + untrusted.Text(p).Line()
		}
		for _, s := range f.Config.Servers {
			sr := serverRowOf(s)
			if sr.Switch == switchOff || sr.Switch == switchOn && s.Command != bin.Exe {
				r.Routable++
			}
			r.Servers = append(r.Servers, sr)
		}
		rows = append(rows, r)
	}
	return rows
}

// Title is a found host's name for people: a project's own servers
// (Claude Code's local scope) by the host's name and the project's folder,
// a VS Code profile's by the host's name and the profile's.
func Title(h hosts.Host) string {
	if h.Profile.ID != "" {
		return h.Name + " — profile " + untrusted.Text(h.Profile.Name).Line()
	}
	if h.Project == "" {
		return h.Name
	}
	dir := hosts.BaseName(strings.TrimRight(h.Project, `/\`))
	if dir == "" {
		dir = h.Project
	}
	return h.Name + " · " + untrusted.Text(dir).Line()
}

func serverRowOf(s hosts.Server) serverRow {
	// A routed remote server shows as the remote server it is.
	r := serverRow{Name: untrusted.Text(s.Name).Line(), Key: s.Name, Transport: string(s.Entry().Transport), Runs: runs(s)}
	switch {
	case s.Err != nil:
		r.Note, r.Broken = untrusted.Text(s.Err.Error()).Block(), true
	case s.Routed():
		r.Switch = switchOn
	default:
		r.Switch = switchOff
	}
	return r
}

// runs is what a server runs, as the host would run it were it not routed:
// the command by its file name, then its arguments, or the URL.
func runs(s hosts.Server) string {
	e := s.Entry()
	if e.Command != "" {
		e.Command = hosts.BaseName(e.Command)
	}
	return shorten(untrusted.Text(e.Target()).Line(), runsWidth)
}

// shorten cuts s to max characters with an ellipsis.
func shorten(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	head, _ := untrusted.Fold(s, max-1)
	return head + "…"
}

// Summary is a found host in one line, for the Welcome window.
type Summary struct {
	Line     string
	Routable bool // Route all would change something
	Done     bool // every server that can go through Elicit Desk does
}

// Summarize says what a found host runs and how much of it is routed.
func Summarize(f hosts.Found, bin hosts.Binaries) Summary {
	r := hostRows([]hosts.Found{f}, bin)[0]
	switch {
	case r.ReadOnly != "":
		return Summary{Line: "Listed only, never edited: " + r.ReadOnly + "."}
	case r.Err != "":
		return Summary{Line: "Its config cannot be read: " + r.Err}
	case len(r.Servers) == 0:
		return Summary{Line: "No servers configured."}
	}
	stdio, on := 0, 0
	for _, s := range r.Servers {
		if s.Switch != switchNone {
			stdio++
		}
		if s.Switch == switchOn {
			on++
		}
	}
	sum := Summary{Line: plural(len(r.Servers), "server", "servers"), Routable: r.Routable > 0}
	switch {
	case stdio == 0:
		sum.Line += ", none of which Elicit Desk can route yet."
	case on == stdio && !sum.Routable && stdio == len(r.Servers):
		sum.Line, sum.Done = sum.Line+", all routed through Elicit Desk.", true
	case on == stdio && !sum.Routable:
		sum.Line, sum.Done = sum.Line+fmt.Sprintf(": the %d that can be are routed through Elicit Desk.", on), true
	case on > 0:
		sum.Line += fmt.Sprintf(", %d of %d routed through Elicit Desk.", on, stdio)
	default:
		sum.Line += fmt.Sprintf(", %d can go through Elicit Desk.", stdio)
	}
	return sum
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
