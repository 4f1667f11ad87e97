package hosts

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// opencode's entries (packages/opencode/src/config/config.ts, McpLocal and
// McpRemote, both strict: a member of the other kind is an error) put the
// whole command line in one array, and the env in "environment". A local
// entry is routed by putting the bridge's words before the command in
// that array; a remote one becomes a local entry whose command array runs
// the bridge with the url, its headers becoming its environment.

// opencodeServer reads the entry obj, at offset at, of opencode's "mcp".
func opencodeServer(data []byte, s Server, obj *hujson.Object, at int) (Server, entry) {
	var kind string
	var argv []string
	read := func(key string, into any) { s.Err = readMember(data, obj, key, into, s.Err) }
	read("type", &kind)
	read("command", &argv)
	read("environment", &s.Env)
	read("url", &s.URL)
	read("headers", &s.Headers)
	cmd, _ := member(data, obj, "command")
	switch {
	case s.Err != nil:
	case kind == "local" && len(argv) > 0:
		s.Transport, s.Command, s.Args = config.TransportStdio, argv[0], argv[1:]
	case kind == "remote" && s.URL != "":
		s.Transport = config.TransportHTTP // opencode tries Streamable HTTP, then SSE
	case kind == "" && cmd == nil && s.URL == "":
		s.Err = errors.New("it only turns on or off a server the host knows from elsewhere")
	default:
		s.Err = fmt.Errorf("the entry at %s is neither a local server with a command nor a remote one with a url", lineCol(data, at))
	}
	if s.Err != nil {
		return s, entry{}
	}
	var e entry
	if s.Transport == config.TransportStdio {
		e = entry{cmd: valueSpan(cmd.Value), key: valueSpan(cmd.Name), argv: true, args: &array{open: cmd.Value.StartOffset + 1}}
		for _, el := range cmd.Value.Value.(*hujson.Array).Elements {
			e.args.elems = append(e.args.elems, valueSpan(el))
		}
		e.cmd = e.args.elems[0]
		if env, _ := member(data, obj, "environment"); env != nil {
			e.maps, e.names = []span{valueSpan(env.Name)}, memberNames(env.Value)
		}
	} else {
		u, _ := member(data, obj, "url")
		e = jsonEntry(u)
		if h, _ := member(data, obj, "headers"); h != nil {
			e.maps, e.names = []span{valueSpan(h.Name)}, memberNames(h.Value)
		}
		for _, key := range []string{"command", "environment", "oauth"} {
			if m, _ := member(data, obj, key); m != nil && e.refuse == "" {
				e.refuse = fmt.Sprintf("it has %q, which opencode takes only from a remote server", key)
			}
		}
	}
	if t, _ := member(data, obj, "type"); t != nil {
		e.kind = valueSpan(t.Value)
	}
	return s, e
}

// routeArgvEdits put the bridge's words before the command in the array:
// the same separator as its elements, so that unroute finds them.
func (c *Config) routeArgvEdits(s Server, e entry, exe string) []edit {
	sep := elementSeparator(c.data, e.args)
	at := e.args.elems[0].start
	return []edit{{span{at, at}, strings.Join(quoted(append([]string{exe}, bridgeArgs(s.Name)...)), sep) + sep}}
}

// unrouteArgvEdits undo routeArgvEdits: everything before the command goes.
func (c *Config) unrouteArgvEdits(s Server, e entry) []edit {
	k := slices.Index(s.Args, "--") + 2 // the command's element: after exe and the args up to "--"
	return []edit{{span{e.args.elems[0].start, e.args.elems[k].start}, ""}}
}

// routeRemoteArgvEdits turn a remote opencode entry into a local one that
// runs `exe bridge -name=KEY -url URL [-header-env NAME]...`: "url"
// becomes "command", whose value is the array around the url's literal,
// "remote" becomes "local" and "headers" "environment", each name
// prefixed with HeaderEnvPrefix.
func (c *Config) routeRemoteArgvEdits(s Server, e entry, exe string) ([]edit, []string, string) {
	switch {
	case e.refuse != "":
		return nil, nil, e.refuse
	case e.key.of(c.data) != quote("url"):
		return nil, nil, uneditable("url")
	case e.kind.of(c.data) != quote("remote"):
		return nil, nil, uneditable("type")
	case !config.IsRemoteURL(s.URL):
		return nil, nil, "its url is not an http or https address, which the bridge cannot reach"
	}
	if reason := urlReason(s.URL); reason != "" {
		return nil, nil, reason
	}
	head := append(nameArgs(s.Name, []string{exe, "bridge"}), flagURL)
	headers, names, skip := c.headerEdits(s, e, "environment")
	if skip != "" {
		return nil, nil, skip
	}
	var tail []string
	for _, n := range names {
		tail = append(tail, flagHeaderEnv, n)
	}
	lits := append(append(quoted(head), e.cmd.of(c.data)), quoted(tail)...)
	edits := append([]edit{
		{e.key, quote("command")},
		{e.cmd, "[" + strings.Join(lits, ", ") + "]"},
		{e.kind, quote("local")},
	}, headers...)
	return edits, append(append(head, s.URL), tail...), ""
}

// unrouteRemoteArgvEdits undo routeRemoteArgvEdits, when the entry's
// command array is still as route wrote it.
func (c *Config) unrouteRemoteArgvEdits(e entry, b remoteBridge) ([]edit, string) {
	if e.args == nil || e.key.of(c.data) != quote("command") || e.kind.of(c.data) != quote("local") || b.transport != "" {
		return nil, ReasonEdited
	}
	lits := make([]string, len(e.args.elems))
	for i, el := range e.args.elems {
		lits[i] = el.of(c.data)
	}
	written := "[" + strings.Join(lits, ", ") + "]"
	start := e.args.open - 1
	if !strings.HasPrefix(string(c.data[start:]), written) {
		return nil, ReasonEdited
	}
	edits := []edit{
		{e.key, quote("url")},
		{span{start, start + len(written)}, lits[b.urlAt+1]}, // the array's first element is exe
		{e.kind, quote("remote")},
	}
	if len(b.headers) > 0 {
		unheaders, reason := c.unheaderEdits(e, "environment")
		if reason != "" {
			return nil, reason
		}
		edits = append(edits, unheaders...)
	}
	return edits, ""
}
