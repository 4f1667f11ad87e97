package hosts

import (
	"slices"
	"strings"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// Server is one entry of a host's server list, as the host would run it.
type Server struct {
	Name      string
	Transport config.Transport
	Command   string // stdio: the executable, the bridge's when routed
	Args      []string
	Env       map[string]string
	Cwd       string
	URL       string            // remote: the endpoint
	Headers   map[string]string // remote: sent with every request
	// Err says why the entry cannot be read or routed, with its line; the
	// other fields are then only what could be read.
	Err error
}

// Routed reports whether the host runs s through `elicitdesk bridge`.
func (s Server) Routed() bool {
	_, ok := s.Unrouted()
	return ok
}

// Unrouted returns the command line a routed entry hands to the bridge:
// what follows "--" in `elicitdesk bridge [FLAGS] -- COMMAND ARGS...`. The
// command is known as ours by its name, so an entry routed by an
// elicitdesk since moved is found; another program that has a bridge
// command of its own is not ours.
func (s Server) Unrouted() (argv []string, ok bool) { return s.routedThrough("") }

// routedThrough is Unrouted that also knows exe, under whatever name it
// was built (a test binary, a `go build -o`).
func (s Server) routedThrough(exe string) (argv []string, ok bool) {
	name := strings.ToLower(BaseName(s.Command))
	ours := strings.HasPrefix(name, "elicitdesk") || (exe != "" && s.Command == exe)
	if !ours || s.Transport != config.TransportStdio || len(s.Args) == 0 || s.Args[0] != "bridge" {
		return nil, false
	}
	i := slices.Index(s.Args, "--")
	if i < 0 || i == len(s.Args)-1 {
		return nil, false
	}
	return s.Args[i+1:], true
}

// BaseName is the last element of a path written with either slash:
// host configs are copied between machines, Windows paths and all.
func BaseName(path string) string {
	return path[strings.LastIndexAny(path, `/\`)+1:]
}

// bridgeArgs are the arguments that put command behind the bridge. The
// host config's name is not passed: the bridge names the server from its
// command and the server's own serverInfo.
func bridgeArgs() []string { return []string{"bridge", "--"} }

// Entry is s as an entry of Elicit Desk's own servers.json, for import:
// a routed entry brings the server it routes, not the bridge.
func (s Server) Entry() config.Server {
	e := config.Server{Name: s.Name, Transport: s.Transport, Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd, URL: s.URL, Headers: s.Headers}
	if argv, ok := s.Unrouted(); ok {
		e.Command, e.Args = argv[0], argv[1:]
	}
	return e
}
