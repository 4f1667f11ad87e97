package hosts

import (
	"fmt"
	"slices"
	"strings"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// Plan is a set of edits to a host's config, made but not yet written, so
// that a person can see what changes before it changes.
type Plan struct {
	Config  *Config
	Changes []Change // the entries the plan rewrites
	Skipped []Skip   // the entries it leaves alone, and why

	data   []byte // the whole file after the edits
	routes bool   // the edits write Binaries.Exe, which Apply records first
}

// Change is one entry's command line before and after.
type Change struct {
	Server   string
	Project  string // the project the server is of; "" for the user's
	From, To []string
	// Limit is the time limit on a tool call the change writes or gives
	// back, as the config says it ("tool_timeout_sec = 1800 (was 60)");
	// "" when it leaves the limit as it is.
	Limit string
}

// Skip is an entry a plan leaves alone.
type Skip struct {
	Server, Reason string
	Project        string // the project the server is of; "" for the user's
}

// Reasons an entry is left alone.
const (
	ReasonRouted   = "already routed through Elicit Desk"
	ReasonUnrouted = "not routed through Elicit Desk"
	ReasonEdited   = "its bridge arguments were changed after routing; Elicit Desk cannot tell what to give back (the backup beside the config has the entry as it was)"
	ReasonURL      = "its URL carries a user name, password or query, which the bridge's command line would show to every user of this computer"
)

// Route plans putting the named servers (all when names is empty) behind
// the bridge: a stdio server as `exe bridge -name=KEY -- COMMAND ARGS...`,
// a remote one as `exe bridge -name=KEY -url URL`, which signs in for the
// host, where exe is the config's Binaries.Exe and KEY the entry's name in
// the config. Where the host limits a tool call's time per server (limitRuleOf),
// the limit is raised to LimitSeconds, so that a person has time to
// answer. An entry routed before is brought up to date: pointed at exe
// when it runs another of the Binaries, named when it was routed before
// entries carried their names, and given the time.
func (c *Config) Route(names ...string) (*Plan, error) {
	exe := c.bin.Exe
	p, err := c.plan(names, func(s Server, e entry) (rewrite, string) {
		var r rewrite
		var skip string
		switch {
		case s.Routed():
			r.edits, r.to = c.rerouteEdits(s, e, exe)
		case s.Transport != config.TransportStdio:
			r.edits, r.to, skip = c.routeRemoteEdits(s, e, exe)
		default:
			r.edits, r.to = c.routeEdits(s, e, exe), append(append([]string{exe}, bridgeArgs(s.Name)...), argvOf(s)...)
		}
		if skip != "" {
			return rewrite{}, skip
		}
		limit, change, skip := c.limitEdits(e, s.Routed())
		if skip != "" {
			return rewrite{}, skip
		}
		r.edits, r.limit = append(r.edits, limit...), change
		if len(r.edits) == 0 {
			return rewrite{}, ReasonRouted
		}
		return r, ""
	})
	if p != nil {
		p.routes = true
	}
	return p, err
}

// Unroute plans giving the named routed servers (all when names is empty)
// their own command lines, or URLs, back, and their time limits. What
// Route added is removed as it was added, so the file comes back byte for
// byte.
func (c *Config) Unroute(names ...string) (*Plan, error) {
	return c.plan(names, func(s Server, e entry) (rewrite, string) {
		var r rewrite
		if b, ok := s.remoteThrough(); ok {
			edits, reason := c.unrouteRemoteEdits(e, b)
			if reason != "" {
				return rewrite{}, reason
			}
			r.edits, r.to = edits, []string{b.url}
		} else if argv, ok := s.Unrouted(); ok {
			r.edits, r.to = c.unrouteEdits(s, e), argv
		} else {
			return rewrite{}, ReasonUnrouted
		}
		limit, change := c.unlimitEdits(e)
		r.edits, r.limit = append(r.edits, limit...), change
		return r, ""
	})
}

// rewrite is what a plan does to one entry: its edits, the command line
// they give it, and the time limit they write or give back.
type rewrite struct {
	edits []edit
	to    []string
	limit string
}

// plan applies rewrite to each named entry that can be rewritten.
func (c *Config) plan(names []string, rewrite func(Server, entry) (r rewrite, skip string)) (*Plan, error) {
	for _, n := range names {
		if _, ok := c.Server(n); !ok {
			return nil, fmt.Errorf("%s's config has no server %q", c.Host.Name, n)
		}
	}
	p := &Plan{Config: c}
	var edits []edit
	for i, s := range c.Servers {
		if len(names) > 0 && !slices.Contains(names, s.Name) {
			continue
		}
		reason := ""
		if s.Err != nil {
			reason = s.Err.Error()
		} else {
			r, skip := rewrite(s, c.entries[i])
			if skip == "" {
				skip = c.check(i, r)
			}
			if reason = skip; reason == "" {
				edits = append(edits, r.edits...)
				p.Changes = append(p.Changes, Change{Server: s.Name, Project: s.Project, From: argvOf(s), To: r.to, Limit: r.limit})
			}
		}
		if reason != "" {
			p.Skipped = append(p.Skipped, Skip{Server: s.Name, Reason: reason, Project: s.Project})
		}
	}
	p.data = applyEdits(c.data, edits)
	return p, nil
}

// check reads a YAML entry back as r rewrites it, and says why r cannot
// be made when the host would not then run r.to: a YAML literal's end is
// found by reading it, not from a parser's ranges, so every edit of one
// is proved before it is written.
func (c *Config) check(i int, r rewrite) string {
	if c.Host.Format != YAML {
		return ""
	}
	after, err := parse(c.Host, applyEdits(c.data, slices.Clone(r.edits)), c.bin)
	if err != nil || len(after.Servers) != len(c.Servers) {
		return uneditable("entry")
	}
	s := after.Servers[i]
	if s.Err != nil || s.Name != c.Servers[i].Name || !slices.Equal(argvOf(s), r.to) {
		return uneditable("entry")
	}
	return ""
}

// rerouteEdits bring s, routed before, up to date: pointed at exe, and
// named after it, when it was routed before entries carried their names.
// The name goes after "bridge" with the separator the args already use,
// so that unroute still finds the args as route writes them.
func (c *Config) rerouteEdits(s Server, e entry, exe string) ([]edit, []string) {
	var edits []edit
	to := append([]string{exe}, s.Args...)
	if s.Command != exe {
		edits = append(edits, edit{e.cmd, quote(exe)})
	}
	if s.Name != "" && !s.named() && e.args != nil {
		first := e.args.elems[e.argsFrom()] // "bridge"
		edits = append(edits, edit{span{first.end, first.end}, elementSeparator(c.data, e.args) + quote(flagName+s.Name)})
		to = slices.Insert(to, 2, flagName+s.Name)
	}
	return edits, to
}

// routeEdits move the command into the args, after the bridge's
// arguments, as its own literal, and put exe in its place. A missing args
// member is added in compact form (no spaces), which an edit of an
// existing array never writes: that is how unrouteEdits knows to remove
// it again.
func (c *Config) routeEdits(s Server, e entry, exe string) []edit {
	if e.argv {
		return c.routeArgvEdits(s, e, exe)
	}
	cmd := e.cmd.of(c.data)
	head := append(quoted(bridgeArgs(s.Name)), cmd)
	edits := []edit{{e.cmd, quote(exe)}}
	switch {
	case e.args == nil:
		edits = append(edits, edit{span{e.addAt, e.addAt}, e.addPrefix + "[" + strings.Join(head, ",") + "]"})
	case len(e.args.elems) == 0:
		edits = append(edits, edit{span{e.args.open, e.args.open}, strings.Join(head, ", ")})
	default:
		sep := elementSeparator(c.data, e.args)
		at := e.args.elems[0].start
		edits = append(edits, edit{span{at, at}, strings.Join(head, sep) + sep})
	}
	return edits
}

// unrouteEdits undo routeEdits: the command's literal goes back from the
// args, and the bridge's arguments before it go, as they are written: an
// entry routed before entries carried their names has none.
func (c *Config) unrouteEdits(s Server, e entry) []edit {
	if e.argv {
		return c.unrouteArgvEdits(s, e)
	}
	k := slices.Index(s.Args, "--") + 1 // the command's element
	elems := e.args.elems
	lits := make([]string, k+1)
	for i, el := range elems[:k+1] {
		lits[i] = el.of(c.data)
	}
	edits := []edit{{e.cmd, lits[k]}}
	added := e.addPrefix + "[" + strings.Join(lits, ",") + "]"
	switch {
	case len(elems) == k+1 && strings.HasPrefix(string(c.data[e.addAt:]), added):
		edits = append(edits, edit{span{e.addAt, e.addAt + len(added)}, ""})
	case len(elems) > k+1:
		edits = append(edits, edit{span{elems[0].start, elems[k+1].start}, ""})
	default:
		edits = append(edits, edit{span{elems[0].start, elems[k].end}, ""})
	}
	return edits
}

// argvOf is the command line the host runs for s; a remote server's URL.
func argvOf(s Server) []string {
	if s.Transport != config.TransportStdio {
		return []string{s.URL}
	}
	return append([]string{s.Command}, s.Args...)
}

// edit replaces the bytes at a span with text.
type edit struct {
	at   span
	text string
}

// applyEdits returns data with edits made; they do not overlap, and
// insertions at one place are made in the order given.
func applyEdits(data []byte, edits []edit) []byte {
	slices.SortStableFunc(edits, func(a, b edit) int { return a.at.start - b.at.start })
	out := make([]byte, 0, len(data)+64*len(edits))
	prev := 0
	for _, ed := range edits {
		out = append(append(out, data[prev:ed.at.start]...), ed.text...)
		prev = ed.at.end
	}
	return append(out, data[prev:]...)
}
