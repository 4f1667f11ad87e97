package cli

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// runHosts lists the MCP hosts found on this desktop and their servers, or
// routes a host's servers through the bridge and back. Host configs are
// other programs' files: every name and command in them is untrusted.
func runHosts(args []string, stdout, stderr terminal) int {
	fs := stderr.FlagSet("hosts")
	asJSON := fs.Bool("json", false, "print the hosts as a JSON array")
	known := hosts.Known(hosts.Here())
	if len(args) > 0 && (args[0] == "route" || args[0] == "unroute") {
		return runRoute(known, args[0], args[1:], stdout, stderr)
	}
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		return misuse(fs, stderr, "%q is neither route nor unroute", fs.Arg(0))
	}
	bin, err := bridgeBinaries()
	if err != nil {
		stderr.Linef("elicitdesk hosts: %s", err)
		return 1
	}
	found := hosts.Find(known, bin)
	if *asJSON {
		stdout.JSON(hostsJSON(found))
		return 0
	}
	if len(found) == 0 {
		stdout.Linef("No MCP host config found. Looked for:")
		for _, h := range known {
			stdout.Linef("  %s\t%s", h.ID, h.Config)
		}
		return 0
	}
	for i, f := range found {
		if i > 0 {
			stdout.Linef("")
		}
		switch p := f.Host.Profile; {
		case f.Host.Project != "":
			stdout.Linef("%s, project %s (%s -project %s)  %s", f.Host.Name, f.Host.Project, f.Host.ID, config.CommandLine([]string{f.Host.Project}), f.Host.Config)
		case p.ID != "":
			stdout.Linef("%s, profile %s (%s -profile %s)  %s", f.Host.Name, p.Name, f.Host.ID, config.CommandLine([]string{p.Name}), f.Host.Config)
		default:
			stdout.Linef("%s (%s)  %s", f.Host.Name, f.Host.ID, f.Host.Config)
		}
		if reason, ok := hosts.ReadOnlyReason(f.Err); ok {
			stdout.Linef("  read-only, never edited: %s", reason)
			continue
		}
		if f.Err != nil { // the path is on the line above
			stdout.Linef("  cannot be read: %s", strings.TrimPrefix(f.Err.Error(), f.Host.Config+": "))
			continue
		}
		if len(f.Config.Servers) == 0 {
			stdout.Linef("  no servers")
			continue
		}
		table, flush := stdout.Table()
		table.Linef("  NAME\tTRANSPORT\tROUTED\tRUNS")
		for _, s := range f.Config.Servers {
			e := s.Entry() // a routed server as the server it is
			runs := e.Target()
			if s.Err != nil {
				runs = "error: " + s.Err.Error()
			}
			table.Linef("  %s\t%s\t%s\t%s", s.Name, orDash(string(e.Transport)), yesNo(s.Routed()), runs)
		}
		flush()
	}
	return 0
}

// hostJSON is a host in `hosts -json`; scripts rely on its shape.
type hostJSON struct {
	Host    string `json:"host"`
	Project string `json:"project,omitempty"` // the project whose own servers these are
	// Profile and ProfileID name the VS Code profile whose servers these
	// are; both are left out for the default profile.
	Profile   string `json:"profile,omitempty"`
	ProfileID string `json:"profileId,omitempty"`
	Config    string `json:"config"`
	Error     string `json:"error,omitempty"`
	// ReadOnly says why the host is listed but never edited.
	ReadOnly string       `json:"readOnly,omitempty"`
	Servers  []serverJSON `json:"servers"`
}

type serverJSON struct {
	Name      string           `json:"name"`
	Transport config.Transport `json:"transport"`
	Routed    bool             `json:"routed"`
	Error     string           `json:"error,omitempty"`
}

func hostsJSON(found []hosts.Found) []hostJSON {
	list := []hostJSON{}
	for _, f := range found {
		h := hostJSON{Host: f.Host.ID, Project: f.Host.Project, Profile: f.Host.Profile.Name, ProfileID: f.Host.Profile.ID, Config: f.Host.Config, Servers: []serverJSON{}}
		if reason, ok := hosts.ReadOnlyReason(f.Err); ok {
			h.ReadOnly = reason
		} else if f.Err != nil {
			h.Error = f.Err.Error()
		} else {
			for _, s := range f.Config.Servers {
				e := serverJSON{Name: s.Name, Transport: s.Entry().Transport, Routed: s.Routed()}
				if s.Err != nil {
					e.Error = s.Err.Error()
				}
				h.Servers = append(h.Servers, e)
			}
		}
		list = append(list, h)
	}
	return list
}

// runRoute routes (or unroutes) a host's servers and says what changed,
// what it left alone and why, and that the host needs a restart.
func runRoute(known []hosts.Host, verb string, args []string, stdout, stderr terminal) int {
	fs := stderr.FlagSet("hosts " + verb)
	project := fs.String("project", "", "only the servers of the project `DIR` of its own, for a host that keeps servers per project (Claude Code); \"\" for the user's own")
	profile := fs.String("profile", "", "the servers of the profile `NAME` (or its id), for a host that keeps servers per profile (VS Code, VS Code Insiders, VSCodium); the default profile's without it")
	if code, done := parseMixed(fs, args, stdout, stderr); done {
		return code
	}
	ids := make([]string, len(known))
	for i, k := range known {
		ids[i] = k.ID
	}
	if fs.NArg() == 0 {
		return misuse(fs, stderr, "name the host: %s", strings.Join(ids, ", "))
	}
	h, ok := hosts.Lookup(known, fs.Arg(0))
	if !ok {
		stderr.Linef("elicitdesk hosts %s: no host %q; the hosts are %s", verb, fs.Arg(0), strings.Join(ids, ", "))
		return 1
	}
	bin, err := bridgeBinaries()
	if err != nil {
		stderr.Linef("elicitdesk hosts %s: %s", verb, err)
		return 1
	}
	names := fs.Args()[1:]
	picked, pickedProfile := false, false // -project, -profile was given, "" too
	fs.Visit(func(f *flag.Flag) {
		picked = picked || f.Name == "project"
		pickedProfile = pickedProfile || f.Name == "profile"
	})
	switch {
	case pickedProfile && h.Profiles == "":
		stderr.Linef("elicitdesk hosts %s: %s keeps no servers per profile; -profile is for VS Code, VS Code Insiders and VSCodium", verb, h.Name)
		return 2
	case pickedProfile && *profile != "":
		p, ok := hosts.ProfileNamed(h, *profile)
		if !ok {
			stderr.Linef("elicitdesk hosts %s: %s has no profile %q; its profiles are: %s", verb, h.Name, *profile, profileNames(h))
			return 1
		}
		h = p
	}
	c, err := hosts.Read(h, bin)
	if os.IsNotExist(err) {
		stderr.Linef("elicitdesk hosts %s: %s has no config at %s%s", verb, scopeName(h), h.Config, inProfiles(h, bin, names))
		return 1
	}
	if err != nil {
		stderr.Linef("elicitdesk hosts %s: %s; nothing was changed", verb, err)
		return 1
	}
	switch {
	case picked && h.Projects == "":
		stderr.Linef("elicitdesk hosts %s: %s keeps no servers per project; -project is for Claude Code", verb, h.Name)
		return 2
	case picked && *project != "" && !slices.Contains(c.Projects(), *project):
		stderr.Linef("elicitdesk hosts %s: %s has no servers of the project %s in %s; its projects with servers are: %s", verb, h.Name, *project, c.Path, untrusted.Text(strings.Join(c.Projects(), ", ")))
		return 1
	case picked:
		c = c.Scope(*project)
	}
	for _, n := range names {
		if scopes := scopesOf(c, n); len(scopes) > 1 {
			stderr.Linef("elicitdesk hosts %s: %s has a server %q in more than one scope (%s); say which with -project DIR, or -project \"\" for the user's; nothing was changed", verb, h.Name, n, untrusted.Text(strings.Join(scopes, "; ")))
			return 1
		}
	}
	for _, n := range names {
		if _, ok := c.Server(n); !ok && h.Profiles != "" {
			stderr.Linef("elicitdesk hosts %s: %s has no server %q in %s%s; nothing was changed", verb, scopeName(h), n, c.Path, inProfiles(h, bin, []string{n}))
			return 1
		}
	}
	plan := c.Unroute
	if verb == "route" {
		plan = c.Route
	}
	p, err := plan(names...)
	if err != nil {
		stderr.Linef("elicitdesk hosts %s: %s; nothing was changed", verb, err)
		return 1
	}
	backup, err := p.Apply()
	if err != nil {
		stderr.Linef("elicitdesk hosts %s: %s", verb, err)
		return 1
	}
	if len(p.Changes) == 0 {
		stdout.Linef("Nothing to change in %s (%s).", scopeName(h), c.Path)
	} else {
		stdout.Linef("%sd %d server%s of %s (%s):", strings.ToUpper(verb[:1])+verb[1:], len(p.Changes), plural(len(p.Changes)), scopeName(h), c.Path)
		for _, ch := range p.Changes {
			stdout.Linef("  %s: %s", scoped(ch.Server, ch.Project), commandLine(ch.To))
			if ch.Limit != "" {
				stdout.Linef("    and %s", ch.Limit)
			}
		}
	}
	if len(p.Skipped) > 0 {
		stdout.Linef("Left alone:")
		for _, s := range p.Skipped {
			stdout.Linef("  %s: %s", scoped(s.Server, s.Project), s.Reason)
		}
	}
	if backup != "" {
		stdout.Linef("The file as it was is kept in %s.", backup)
		stdout.Linef("Restart %s so it runs the new command lines.", h.Name)
	}
	if len(names) > 0 && refused(p.Skipped) {
		return 1 // a server asked for by name could not be done
	}
	return 0
}

// scopeName is h's name for people, with the profile its config is of,
// if any.
func scopeName(h hosts.Host) untrusted.Text {
	switch {
	case h.Profile.ID != "":
		return untrusted.Text(h.Name + ", profile " + h.Profile.Name)
	case h.Profiles != "":
		return untrusted.Text(h.Name + ", default profile")
	}
	return untrusted.Text(h.Name)
}

// profileNames lists h's profiles for people.
func profileNames(h hosts.Host) untrusted.Text {
	var names []string
	for _, p := range hosts.ProfilesOf(h) {
		names = append(names, p.Profile.Name)
	}
	if len(names) == 0 {
		return "none but the default"
	}
	return untrusted.Text(strings.Join(names, ", "))
}

// inProfiles points a route of h's default profile at the profiles whose
// configs have a server of names (any, when names is empty), for someone
// who did not say -profile: "" when none does, or h is not the default
// profile of a host with profiles.
func inProfiles(h hosts.Host, bin hosts.Binaries, names []string) string {
	if h.Profiles == "" || h.Profile.ID != "" {
		return ""
	}
	var with []string
	for _, p := range hosts.ProfilesOf(h) {
		c, err := hosts.Read(p, bin)
		if err != nil {
			continue
		}
		if slices.ContainsFunc(c.Servers, func(s hosts.Server) bool { return len(names) == 0 || slices.Contains(names, s.Name) }) {
			with = append(with, p.Profile.Name)
		}
	}
	what := "servers"
	if len(names) > 0 {
		what = "it"
	}
	switch len(with) {
	case 0:
		return ""
	case 1:
		return "; the profile " + with[0] + " has " + what + ": say -profile NAME for a profile's"
	}
	return "; the profiles " + strings.Join(with, ", ") + " have " + what + ": say -profile NAME for a profile's"
}

// scoped is a server's name with the project it is of, if any.
func scoped(name, project string) untrusted.Text {
	if project == "" {
		return untrusted.Text(name)
	}
	return untrusted.Text(name + " (project " + project + ")")
}

// scopesOf names the scopes of c that have a server called name.
func scopesOf(c *hosts.Config, name string) []string {
	var scopes []string
	for _, s := range c.Servers {
		switch {
		case s.Name != name:
		case s.Project == "":
			scopes = append(scopes, "the user's")
		default:
			scopes = append(scopes, "project "+s.Project)
		}
	}
	return scopes
}

// refused reports whether any of skipped was left alone for a reason
// other than being as asked already.
func refused(skipped []hosts.Skip) bool {
	for _, s := range skipped {
		if s.Reason != hosts.ReasonRouted && s.Reason != hosts.ReasonUnrouted {
			return true
		}
	}
	return false
}

// commandLine shows argv as a shell would read it.
func commandLine(argv []string) untrusted.Text {
	return untrusted.Text(config.CommandLine(argv))
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// bridgeBinaries are the elicitdesk binaries whose bridge entries are
// ours: this one, as routed entries run it, and those route recorded.
func bridgeBinaries() (hosts.Binaries, error) {
	exe, err := hosts.Exe()
	if err != nil {
		return hosts.Binaries{}, fmt.Errorf("cannot tell where elicitdesk is: %w", err)
	}
	return hosts.LoadBinaries(exe, hosts.RecordPath(xdg.StateHome))
}
