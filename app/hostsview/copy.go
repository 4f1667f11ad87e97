package hostsview

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// copyResult is what copying a host's servers into servers.json did.
type copyResult struct {
	Added   []string // the names given, as in the file
	Already []string // servers.json runs the same thing under this name
	Broken  []string // entries that cannot be read
}

// copyServers appends to cfg each of the host's servers it does not run
// yet. A name taken by another server gets the host's name beside it, and
// a number after that if it must: "github (Cursor)", "github (Cursor 2)".
func copyServers(cfg *config.File, host string, from []hosts.Server) copyResult {
	var res copyResult
	for _, s := range from {
		if s.Err != nil {
			res.Broken = append(res.Broken, s.Name)
			continue
		}
		e := s.Entry()
		if i := slices.IndexFunc(cfg.Servers, func(o config.Server) bool { return sameServer(o, e) }); i >= 0 {
			res.Already = append(res.Already, cfg.Servers[i].Name)
			continue
		}
		e.Name = freeName(cfg, s.Name, host)
		cfg.Servers = append(cfg.Servers, e)
		res.Added = append(res.Added, e.Name)
	}
	return res
}

// sameServer reports whether a and b run the same server the same way.
func sameServer(a, b config.Server) bool {
	return a.Transport == b.Transport && a.Command == b.Command && slices.Equal(a.Args, b.Args) &&
		a.URL == b.URL && a.Cwd == b.Cwd && maps.Equal(a.Env, b.Env) && maps.Equal(a.Headers, b.Headers)
}

func freeName(cfg *config.File, name, host string) string {
	taken := func(n string) bool { _, ok := cfg.Server(n); return ok }
	if !taken(name) {
		return name
	}
	try := name + " (" + host + ")"
	for i := 2; taken(try); i++ {
		try = fmt.Sprintf("%s (%s %d)", name, host, i)
	}
	return try
}

// copied tells the person what copying did.
func copied(host string, r copyResult) string {
	var b strings.Builder
	switch {
	case len(r.Added) == 0 && len(r.Already) > 0:
		b.WriteString("Nothing was copied: Elicit Desk has every server of " + host + " already.")
	case len(r.Added) == 0:
		b.WriteString("Nothing was copied.")
	default:
		b.WriteString("Copied from " + host + " into Elicit Desk, which connects to them now: " + names(r.Added) + ".")
	}
	if len(r.Already) > 0 && len(r.Added) > 0 {
		b.WriteString("\n\nAlready in Elicit Desk: " + names(r.Already) + ".")
	}
	if len(r.Broken) > 0 {
		b.WriteString("\n\nNot copied, as " + host + "'s config does not say how to run them: " + names(r.Broken) + ".")
	}
	return b.String()
}

// names lists names as they may be shown.
func names(ns []string) string {
	quoted := make([]string, len(ns))
	for i, n := range ns {
		quoted[i] = untrusted.Text(n).Quote()
	}
	return strings.Join(quoted, ", ")
}
