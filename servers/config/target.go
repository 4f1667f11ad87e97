package config

import "github.com/elicitdesk/elicitdesk/internal/base/cmdline"

// Target renders what the entry connects to, for display: the command line
// for a stdio server (quoted so it could be pasted into this system's
// terminal), the URL for a remote one. Env and headers are left out because
// they often hold secrets.
func (s Server) Target() string {
	if s.Command == "" {
		return s.URL
	}
	return CommandLine(append([]string{s.Command}, s.Args...))
}

// CommandLine renders argv quoted so it could be pasted into this system's
// terminal: a POSIX shell's quoting, Windows' on Windows (see cmdline.Join).
func CommandLine(argv []string) string { return cmdline.Join(argv) }
