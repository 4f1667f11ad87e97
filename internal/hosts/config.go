package hosts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/elicitdesk/elicitdesk/internal/base/atomicfile"
)

// Config is a host's config file as read: its servers, and the bytes they
// were read from, which every edit starts from.
type Config struct {
	Host Host
	// Path is the file edits replace: Host.Config, or the file it links to.
	Path    string
	Servers []Server

	bin     Binaries // the binaries whose bridge entries are ours
	data    []byte
	entries []entry // where each of Servers is in data
}

// Found is a host whose config file exists, read or not.
type Found struct {
	Host   Host
	Config *Config // nil when Err
	Err    error
}

// Find reads the config of each host that has one, knowing the entries
// that run one of bin as routed. A file that exists but cannot be read is
// found, with its error. A host that keeps servers per project is found
// once for the user's servers and once for each project that has some,
// each its Scope; one that keeps them per profile, once for each profile
// that has a config file (ProfilesOf).
func Find(hosts []Host, bin Binaries) []Found {
	var found []Found
	for _, h := range hosts {
		for _, h := range append([]Host{h}, ProfilesOf(h)...) {
			found = append(found, find(h, bin)...)
		}
	}
	return found
}

// find reads h's config as Find does.
func find(h Host, bin Binaries) []Found {
	c, err := Read(h, bin)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil || h.Projects == "":
		return []Found{{Host: h, Config: c, Err: err}}
	}
	var found []Found
	for _, p := range append([]string{""}, c.Projects()...) {
		s := c.Scope(p)
		if p == "" && len(s.Servers) == 0 && len(c.Servers) > 0 {
			continue // the user's scope is shown empty only when no scope has servers
		}
		found = append(found, Found{Host: s.Host, Config: s})
	}
	return found
}

// Projects are the projects that have servers of their own in c, in the
// file's order.
func (c *Config) Projects() []string {
	var dirs []string
	for _, s := range c.Servers {
		if s.Project != "" && !slices.Contains(dirs, s.Project) {
			dirs = append(dirs, s.Project)
		}
	}
	return dirs
}

// Scope is c with only the servers of project ("" for the user's own), its
// Host's Project set to it: plans made from it edit those entries alone,
// in the same file.
func (c *Config) Scope(project string) *Config {
	s := *c
	s.Host.Project = project
	s.Servers, s.entries = nil, nil
	for i, srv := range c.Servers {
		if srv.Project == project {
			s.Servers, s.entries = append(s.Servers, srv), append(s.entries, c.entries[i])
		}
	}
	return &s
}

// Read reads h's config. It fails, with the line to look at, when the
// file is not valid in h's format or its server list is not an object
// with one entry per name; an entry that cannot be routed only has Err set.
// The entries that run one of bin are known as routed, and Route points
// entries at bin.Exe.
func Read(h Host, bin Binaries) (*Config, error) {
	chain := atomicfile.LinkChain(h.Config)
	path := chain[len(chain)-1]
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if h.ReadOnly != "" {
		return nil, &ReadOnlyError{Host: h.Name, Path: path, Reason: h.ReadOnly}
	}
	c, err := parse(h, data, bin)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c.Path = path
	return c, nil
}

// parse reads data as h's config.
func parse(h Host, data []byte, bin Binaries) (*Config, error) {
	parse := parseJSON
	switch h.Format {
	case TOML:
		parse = parseTOML
	case YAML:
		parse = parseYAML
	}
	servers, entries, err := parse(h, data)
	if err != nil {
		return nil, err
	}
	for i := range servers {
		// Only the bridge's shape is worth looking up: Has may search PATH.
		servers[i].known = servers[i].runsBridge() && bin.Has(servers[i].Command)
	}
	return &Config{Host: h, Servers: servers, bin: bin, data: data, entries: entries}, nil
}

// ReadOnlyError is the error Read gives for a host whose config is there
// but that Elicit Desk lists without editing: it never reads what it could
// not write back exactly.
type ReadOnlyError struct {
	Host, Path string
	Reason     string // why, for people
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("%s (%s) is listed read-only, never edited: %s", e.Host, e.Path, e.Reason)
}

// ReadOnlyReason is why err's host is listed read-only, when it is.
func ReadOnlyReason(err error) (string, bool) {
	var ro *ReadOnlyError
	if errors.As(err, &ro) {
		return ro.Reason, true
	}
	return "", false
}

// Server returns the entry called name.
func (c *Config) Server(name string) (Server, bool) {
	for _, s := range c.Servers {
		if s.Name == name {
			return s, true
		}
	}
	return Server{}, false
}
