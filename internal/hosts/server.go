package hosts

import (
	"slices"
	"strings"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// Server is one entry of a host's server list, as the host would run it.
type Server struct {
	Name string
	// Project is the directory of the project whose own server this is,
	// in a host that keeps servers per project (Claude Code's local
	// scope); "" for the user's.
	Project   string
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

	known bool // Command is one of the Binaries the config was read with
}

// Routed reports whether the host runs s through `elicitdesk bridge`.
func (s Server) Routed() bool {
	if _, ok := s.Unrouted(); ok {
		return true
	}
	_, ok := s.remoteThrough()
	return ok
}

// Unrouted returns the command line a routed entry hands to the bridge:
// what follows "--" in `elicitdesk bridge [FLAGS] -- COMMAND ARGS...`.
// The command is known as ours by its path (see Binaries), so an entry
// routed by an elicitdesk since moved is found; another program that has
// a bridge command of its own is not ours, whatever its name.
func (s Server) Unrouted() (argv []string, ok bool) {
	if !s.ours() {
		return nil, false
	}
	i := slices.Index(s.Args, "--")
	if i < 0 || i == len(s.Args)-1 {
		return nil, false
	}
	return s.Args[i+1:], true
}

// ours reports whether s runs `elicitdesk bridge` of one of the config's
// Binaries.
func (s Server) ours() bool { return s.known && s.runsBridge() }

// runsBridge reports whether s runs some program's `bridge` command, the
// shape of a routed entry, whichever program it is.
func (s Server) runsBridge() bool {
	return s.Transport == config.TransportStdio && len(s.Args) > 0 && s.Args[0] == "bridge"
}

// remoteBridge is what a routed remote entry's bridge arguments say: the
// URL, and how the host's entry wrote it, for unroute to write it back.
type remoteBridge struct {
	urlFlag   string   // -url, or -serverUrl or -httpUrl for an entry that called it so
	url       string   // the server's URL
	urlAt     int      // the index of the URL in the args
	transport string   // the entry's "type", "" without one
	headers   []string // the names of the headers, whose values are in the env
}

// The bridge's flags a routed entry is written with, in this order.
const (
	flagName      = "-name=" // with the entry's key: one argument, so that no key reads as a flag or as "--"
	flagURL       = "-url"
	flagServerURL = "-serverUrl"
	flagHTTPURL   = "-httpUrl"
	flagTransport = "-transport"
	flagHeaderEnv = "-header-env"
)

// RoutedRemote returns the remote server a routed entry's bridge
// connects to: its URL, transport and headers.
func (s Server) RoutedRemote() (Server, bool) {
	b, ok := s.remoteThrough()
	if !ok {
		return Server{}, false
	}
	r := Server{Name: s.Name, Transport: config.TransportHTTP, URL: b.url}
	if b.transport == "sse" {
		r.Transport = config.TransportSSE
	}
	for _, h := range b.headers {
		if r.Headers == nil {
			r.Headers = map[string]string{}
		}
		v, ok := s.Env[HeaderEnvPrefix+h]
		if !ok { // routed before names took the prefix
			v = s.Env[h]
		}
		r.Headers[h] = v
	}
	return r, true
}

// remoteThrough reads the bridge arguments Route writes for a remote
// entry: bridge [-name=KEY] -url URL [-transport T] [-header-env NAME]...;
// nothing else, so that unroute can give back what route took. Entries
// routed before they carried their names have no -name.
func (s Server) remoteThrough() (remoteBridge, bool) {
	a := s.Args
	if !s.ours() || slices.Contains(a, "--") {
		return remoteBridge{}, false
	}
	at := 1
	if len(a) > at && strings.HasPrefix(a[at], flagName) {
		at++
	}
	if len(a) < at+2 || !slices.Contains([]string{flagURL, flagServerURL, flagHTTPURL}, a[at]) {
		return remoteBridge{}, false
	}
	b := remoteBridge{urlFlag: a[at], url: a[at+1], urlAt: at + 1}
	rest := a[at+2:]
	if len(rest) >= 2 && rest[0] == flagTransport {
		b.transport, rest = rest[1], rest[2:]
	}
	for len(rest) >= 2 && rest[0] == flagHeaderEnv {
		b.headers, rest = append(b.headers, rest[1]), rest[2:]
	}
	return b, len(rest) == 0
}

// BaseName is the last element of a path written with either slash:
// host configs are copied between machines, Windows paths and all.
func BaseName(path string) string {
	return path[strings.LastIndexAny(path, `/\`)+1:]
}

// bridgeArgs are the arguments that put a command behind the bridge for
// the entry called name: the bridge calls the server by the name the
// person gave it in the host's config, not by its program ("node").
func bridgeArgs(name string) []string {
	return append(nameArgs(name, []string{"bridge"}), "--")
}

// nameArgs is args with the bridge's -name for the entry called name
// added; args as they are for an entry without a name.
func nameArgs(name string, args []string) []string {
	if name == "" {
		return args
	}
	return append(args, flagName+name)
}

// named reports whether a routed entry's bridge arguments name it: an
// entry routed before entries carried their names does not, and route
// then adds the name. Any spelling the bridge reads counts, so that a
// name the person gave is not given twice.
func (s Server) named() bool {
	flags := s.Args
	if i := slices.Index(flags, "--"); i >= 0 {
		flags = flags[:i]
	}
	return slices.ContainsFunc(flags, func(a string) bool {
		flag, ok := strings.CutPrefix(a, "-")
		flag = strings.TrimPrefix(flag, "-")
		return ok && (flag == "name" || strings.HasPrefix(flag, "name="))
	})
}

// Entry is s as an entry of Elicit Desk's own servers.json, for import:
// a routed entry brings the server it routes, not the bridge.
func (s Server) Entry() config.Server {
	if r, ok := s.RoutedRemote(); ok {
		s = r
	}
	e := config.Server{Name: s.Name, Transport: s.Transport, Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd, URL: s.URL, Headers: s.Headers}
	if argv, ok := s.Unrouted(); ok {
		e.Command, e.Args = argv[0], argv[1:]
	}
	return e
}
