package cli

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// askWait bounds asking the running app for its servers' states: it
// answers at once.
const askWait = 10 * time.Second

// States a server has in `elicitdesk servers` when the app does not say:
// what its entry in servers.json allows.
const (
	stateConfigured = "configured" // usable; the app connects to it when it runs
	stateInvalid    = "invalid"    // the entry cannot be used; error says why
	stateDisabled   = "disabled"
	statePending    = "pending" // the running app has not taken the entry in yet
)

// serverRow is one server as `elicitdesk servers` shows it; -json prints
// these, and scripts rely on the shape.
type serverRow struct {
	Name      string           `json:"name"`
	Transport config.Transport `json:"transport"`
	Target    string           `json:"target"`
	// State is the running app's (connecting, ready, failed, stopped,
	// disabled), else one of the entry's: configured, invalid, disabled.
	State    string     `json:"state"`
	Since    *time.Time `json:"since,omitempty"` // when State began, while the app runs
	Disabled bool       `json:"disabled,omitempty"`
	Error    string     `json:"error,omitempty"`
	Details  string     `json:"details,omitempty"` // the error chain behind a live Error; with -v
	Warnings []string   `json:"warnings,omitempty"`
}

// serverRows lists cfg's servers in file order, each with its state in
// live, the running app's statuses; nil live means the app is not running.
// verbose keeps the error chains behind the app's plain words.
func serverRows(cfg *config.File, live []endpoint.ServerStatus, verbose bool) []serverRow {
	rows := []serverRow{}
	for _, s := range cfg.Servers {
		r := serverRow{Name: s.Name, Transport: s.Transport, Target: s.Target(), Disabled: s.Disabled, Warnings: s.Warnings}
		switch {
		case s.Err != nil:
			r.State, r.Error = stateInvalid, s.Err.Error()
		case s.Disabled:
			r.State = stateDisabled
		default:
			r.State = stateConfigured
		}
		if live != nil {
			r.State = statePending
			for _, st := range live {
				if st.Name == s.Name {
					r.State, r.Error, r.Since = st.State, st.Error, &st.Since
					if verbose {
						r.Details = st.Details
					}
					break
				}
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// liveStatuses asks the running app where each server's connection
// stands; an error wrapping endpoint.ErrNotRunning says no app runs.
func liveStatuses(config string) ([]endpoint.ServerStatus, error) {
	ctx, cancel := context.WithTimeout(context.Background(), askWait)
	defer cancel()
	c, err := endpoint.Dial(ctx, endpoint.AppPath())
	if err != nil {
		return nil, err
	}
	defer c.Close()
	abs, err := filepath.Abs(config)
	if err != nil {
		return nil, err
	}
	list, err := c.Servers(ctx, endpoint.ServersQuery{Config: abs})
	if list == nil && err == nil {
		list = []endpoint.ServerStatus{} // running, with no server
	}
	return list, err
}

// runServers lists the configured servers, with where each connection
// stands while the app runs. It creates no file. Names, targets and errors
// come from a file other programs write too, and from servers, so they are
// shown through untrusted's views.
func runServers(args []string, stdout, stderr terminal) int {
	fs := stderr.FlagSet("servers")
	path := config.Flag(fs)
	asJSON := fs.Bool("json", false, "print the servers as a JSON array, each with its state")
	verbose := verboseFlag(fs)
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		return noArgs(fs, stderr)
	}
	cfg, exists, err := readConfig(*path)
	if err != nil {
		stderr.Linef("elicitdesk servers: %s", err)
		return 2
	}
	// A running app's servers.json exists (it writes one at its first
	// start): the live states of a file that does not are another file's.
	var live []endpoint.ServerStatus
	var liveErr error
	if exists {
		live, liveErr = liveStatuses(cfg.Path)
	}
	rows := serverRows(cfg, live, *verbose)
	notes := stdout // what a person reads beside the list; stderr beside JSON
	if *asJSON {
		stdout.JSON(rows)
		notes = stderr
	} else {
		printServers(rows, stdout)
	}
	switch {
	case !exists:
		notes.Linef("%s does not exist yet: the app creates it, with the demo server, the first time it starts with it.", cfg.Path)
	case len(rows) == 0:
		notes.Linef("No servers are configured in %s: add one in the app's Servers window, or edit the file.", cfg.Path)
	default:
		notes.Linef("Configured in %s.", cfg.Path)
	}
	var other *endpoint.OtherConfigError
	switch {
	case !exists, liveErr == nil:
	case errors.Is(liveErr, endpoint.ErrNotRunning):
		notes.Linef("Elicit Desk is not running: showing the configuration.")
	case errors.As(liveErr, &other):
		notes.Linef("Elicit Desk runs with %s, not this file: showing the configuration.", other.Reads)
	default:
		notes.Linef("Cannot ask Elicit Desk (%s): showing the configuration.", liveErr)
	}
	return 0
}

// printServers prints rows as a table, then each server's error.
func printServers(rows []serverRow, stdout terminal) {
	if len(rows) == 0 {
		return
	}
	table, flush := stdout.Table()
	table.Linef("NAME\tTRANSPORT\tSTATE\tTARGET")
	for _, r := range rows {
		state := r.State
		if r.Since != nil && !r.Since.IsZero() {
			state += " since " + r.Since.Local().Format(timeLayout)
		}
		table.Linef("%s\t%s\t%s\t%s", r.Name, r.Transport, state, r.Target)
	}
	flush()
	for _, r := range rows {
		switch {
		case r.State == string(servers.StateNeedsSignIn):
			// The app waits for the person, who signs in from its window.
			stdout.Linef("%s needs you to sign in: use Sign in in the app's Servers window.", r.Name)
		case r.Error != "":
			if strings.Contains(r.Error, "\n") { // an entry's problems, a line each
				stdout.Linef("%s is %s:", r.Name, r.State)
				stdout.Block(untrusted.Text(r.Error))
			} else {
				stdout.Linef("%s is %s: %s", r.Name, r.State, r.Error)
			}
			if r.Details != "" {
				stdout.Linef("  the error chain:")
				stdout.Block(untrusted.Text(r.Details))
			}
		}
	}
}
