// Package config owns servers.json, the list of MCP servers Elicit Desk
// connects to: loading it, saving it without losing other clients' keys,
// and watching it so edits apply without a restart.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/internal/base/atomicfile"
)

// Transport is how Elicit Desk reaches a server; connection code switches on it.
type Transport string

const (
	// TransportStdio starts the server as a child process and talks over its stdin and stdout.
	TransportStdio Transport = "stdio"
	// TransportHTTP talks to a remote server over Streamable HTTP, the default for "url" entries.
	TransportHTTP Transport = "http"
	// TransportSSE talks to a remote server over the older HTTP+SSE transport.
	TransportSSE Transport = "sse"
)

// Transports lists every transport, in the order the Servers window offers them.
func Transports() []Transport {
	return []Transport{TransportStdio, TransportHTTP, TransportSSE}
}

// IsRemoteURL reports whether u can be a remote server's endpoint: an
// absolute http:// or https:// URL with a host.
func IsRemoteURL(u string) bool {
	pu, err := url.Parse(u)
	return err == nil && (pu.Scheme == "http" || pu.Scheme == "https") && pu.Host != ""
}

// serversKey is the top-level key Claude Desktop and Cursor use for the server list.
const serversKey = "mcpServers"

// ProtocolVersions lists the MCP versions an entry may pin, oldest first,
// so the Servers window offers exactly what the loader accepts.
func ProtocolVersions() []string {
	return []string{"2025-06-18", "2025-11-25", "2026-07-28"}
}

// Server is one entry of mcpServers. Entries that cannot be used are
// still listed, with Err set, so the UI can show them beside the good ones.
type Server struct {
	// Name is the entry's key under mcpServers.
	Name string
	// Command is the executable of a stdio server.
	Command string
	// Args are the stdio server's arguments.
	Args []string
	// Env is added to the stdio server's environment.
	Env map[string]string
	// Cwd is the stdio server's working directory; empty inherits ours.
	Cwd string
	// URL is the endpoint of a remote server.
	URL string
	// Headers are sent with every request to a remote server.
	Headers map[string]string
	// Transport is the entry's "type", or the default: stdio for "command", http for "url".
	Transport Transport
	// Disabled keeps the entry in the file without connecting to it.
	Disabled bool
	// ProtocolVersion pins the MCP version; empty negotiates.
	ProtocolVersion string
	// MaxWaiting and MaxPerMinute override DefaultLimits for this server; 0 keeps the default.
	MaxWaiting, MaxPerMinute int
	// Err says why the entry cannot be used, with file:line:column; nil when it can.
	Err error
	// Warnings report what was ignored, such as keys other clients add.
	Warnings []string

	raw json.RawMessage // the entry as read, so Save keeps keys it does not know
}

// File is a parsed servers.json.
type File struct {
	// Path is the file Save writes to.
	Path string
	// Servers are the entries in file order.
	Servers []Server

	top []member // top-level members as read, so Save keeps other clients' settings
}

// DemoName is the name a first start gives the built-in demo server.
const DemoName = "demo"

// Demo is the built-in demo server as the app's binary exe runs it.
func Demo(exe string) Server {
	return Server{Name: DemoName, Command: exe, Args: []string{"demo-server"}}
}

// DemoTry is the demo server's tool that the Welcome window's "Try it"
// calls: it asks one yes-or-no question.
const DemoTry = "ask_confirm"

// Path returns where servers.json lives under configHome (xdg.ConfigHome in the app).
func Path(configHome string) string {
	return filepath.Join(configHome, "elicitdesk", "servers.json")
}

// Flag adds -config to fs, defaulting to servers.json under
// $XDG_CONFIG_HOME: the app's flag and its commands'.
func Flag(fs *flag.FlagSet) *string {
	return fs.String("config", Path(xdg.ConfigHome), "the servers.json `file`")
}

// Load reads and parses the file at path. It fails only when the whole
// file is unusable; problems with single entries are reported in their Err.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := parse(filepath.Base(path), data)
	if err != nil {
		return nil, err
	}
	c.Path = path
	return c, nil
}

// Ensure loads the file at path, first creating it (and its directories)
// with only the demo server when it is missing, so a first start has something
// to connect to. An empty demo.Name becomes DemoName.
func Ensure(path string, demo Server) (*File, error) {
	c, err := Load(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return c, err
	}
	if demo.Name == "" {
		demo.Name = DemoName
	}
	data, err := (&File{Servers: []Server{demo}}).marshal()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	// Another instance may create the file at the same moment; theirs wins.
	if err := writeNewFile(path, data); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	return Load(path)
}

// Server returns the first entry called name, for callers that hold a name from the UI.
func (c *File) Server(name string) (Server, bool) {
	i := slices.IndexFunc(c.Servers, func(s Server) bool { return s.Name == name })
	if i < 0 {
		return Server{}, false
	}
	return c.Servers[i], true
}

// Save writes c to c.Path atomically, with entries in order and 2-space
// indent. A symlinked path is written through to its target, which keeps
// its mode; a new file is made 0600. Keys Elicit Desk does not know, and values it could not read, are
// written back as they were so other clients' settings survive; this needs a
// File from Load or Ensure rather than a fresh one.
func (c *File) Save() error {
	data, err := c.marshal()
	if err != nil {
		return err
	}
	return atomicfile.Write(c.Path, data, 0o600)
}

// parse parses a whole file; name prefixes positions in errors.
func parse(name string, data []byte) (*File, error) {
	src := source{name: name, data: bytes.TrimPrefix(data, []byte("\uFEFF"))}
	if off, err := checkSyntax(src.data); err != nil {
		return nil, src.errorf(off, "%w", err)
	}
	members, ok := objectMembers(src.data, 0)
	if !ok {
		return nil, src.errorf(len(src.data)-len(bytes.TrimLeft(src.data, " \t\r\n")), "the file must hold a JSON object")
	}
	c := &File{}
	found := false
	for _, m := range members {
		if m.key != serversKey {
			if m.deep != 0 { // no entry to blame, and Save could not write it back
				return nil, src.errorf(m.deep, "%q %w", m.key, errTooDeep)
			}
			c.top = append(c.top, m)
			continue
		}
		if found {
			return nil, src.errorf(m.keyOff, "duplicate key %q", m.key)
		}
		found = true
		c.top = append(c.top, member{key: m.key})
		entries, ok := objectMembers(m.value, m.valOff)
		if !ok {
			return nil, src.errorf(m.valOff, "%q must be an object", serversKey)
		}
		c.Servers = parseServers(src, entries)
	}
	return c, nil
}

// parseServers parses the entries of mcpServers; a repeated name spoils only the repeat.
func parseServers(src source, entries []member) []Server {
	seen := make(map[string]bool, len(entries))
	servers := make([]Server, 0, len(entries))
	for _, e := range entries {
		s := parseServer(src, e)
		if seen[e.key] {
			s.Err = errors.Join(src.errorf(e.keyOff, "duplicate server name %q", e.key), s.Err)
		}
		seen[e.key] = true
		servers = append(servers, s)
	}
	return servers
}

// parseServer reads one entry, collecting every problem into Err.
func parseServer(src source, e member) Server {
	s := Server{Name: e.key, raw: e.value}
	var errs []error
	fail := func(off int, format string, args ...any) {
		errs = append(errs, src.errorf(off, format, args...))
	}
	warn := func(off int, format string, args ...any) {
		s.Warnings = append(s.Warnings, src.at(off)+": "+fmt.Sprintf(format, args...))
	}
	if s.Name == "" {
		fail(e.keyOff, "server name is empty")
	}
	fields, ok := objectMembers(e.value, e.valOff)
	if !ok {
		fail(e.valOff, "server %q must be an object", s.Name)
		s.Err = errors.Join(errs...)
		return s
	}

	set := make(map[string]member) // known keys with a usable, non-null value
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		if seen[f.key] {
			fail(f.keyOff, "duplicate key %q", f.key)
			continue
		}
		seen[f.key] = true
		if f.deep != 0 {
			fail(f.deep, "%q %w", f.key, errTooDeep)
			continue
		}
		k, known := keyNamed(f.key)
		if !known {
			warn(f.keyOff, "unknown key %q ignored", f.key)
			continue
		}
		verr := k.decode(&s, f.value)
		if verr != nil {
			fail(f.valOff+verr.off, "%q %s", f.key, verr.msg)
		} else if string(f.value) != "null" {
			set[f.key] = f
		}
	}

	// An empty "type" means the default. An invalid one stays in Transport
	// so Save writes it back unchanged.
	typ, hasType := set["type"]
	hasType = hasType && s.Transport != ""
	validType := slices.Contains(Transports(), s.Transport)
	if hasType && !validType {
		fail(typ.valOff, `"type" must be "stdio", "http" or "sse", not %q`, s.Transport)
	}
	cmd, hasCmd := set["command"]
	u, hasURL := set["url"]
	switch {
	case hasCmd && hasURL:
		fail(e.keyOff, `server %q has both "command" and "url"; use "command" for a local server or "url" for a remote one`, s.Name)
	case !hasCmd && !hasURL:
		fail(e.keyOff, `server %q has neither "command" nor "url"`, s.Name)
	case hasCmd:
		if s.Command == "" {
			fail(cmd.valOff, `"command" is empty`)
		}
		if !hasType {
			s.Transport = TransportStdio
		} else if validType && s.Transport != TransportStdio {
			fail(typ.valOff, `"type" %q needs "url", not "command"`, s.Transport)
		}
		if f, ok := set["headers"]; ok {
			warn(f.keyOff, `"headers" is ignored for stdio servers`)
		}
	default:
		if !IsRemoteURL(s.URL) {
			fail(u.valOff, `"url" must be an http:// or https:// URL, not %q`, s.URL)
		}
		if !hasType {
			s.Transport = TransportHTTP
		} else if s.Transport == TransportStdio {
			fail(typ.valOff, `"type" "stdio" needs "command", not "url"`)
		}
		for _, k := range []string{"args", "env", "cwd"} {
			if f, ok := set[k]; ok {
				warn(f.keyOff, "%q is ignored for remote servers", k)
			}
		}
	}
	if pv, ok := set["protocolVersion"]; ok && s.ProtocolVersion != "" && !slices.Contains(ProtocolVersions(), s.ProtocolVersion) {
		fail(pv.valOff, `"protocolVersion" must be one of %s, or empty to negotiate; not %q`,
			strings.Join(ProtocolVersions(), ", "), s.ProtocolVersion)
	}
	s.Err = errors.Join(errs...)
	return s
}

// marshal renders c as the bytes of servers.json.
func (c *File) marshal() ([]byte, error) {
	top := c.top
	if !slices.ContainsFunc(top, func(m member) bool { return m.key == serversKey }) {
		top = append([]member{{key: serversKey}}, top...)
	}
	var doc objectWriter
	for _, m := range top {
		if m.key != serversKey {
			if err := doc.add(m.key, m.value); err != nil {
				return nil, err
			}
			continue
		}
		var list objectWriter
		for _, s := range c.Servers {
			v, err := s.entryJSON()
			if err == nil && nestsTooDeep(v) {
				err = fmt.Errorf("%w; remove the entry or its deep value", errTooDeep)
			}
			if err != nil {
				return nil, fmt.Errorf("server %q: %w", s.Name, err)
			}
			if err := list.add(s.Name, v); err != nil {
				return nil, err
			}
		}
		if err := doc.add(m.key, list.close()); err != nil {
			return nil, err
		}
	}
	var out bytes.Buffer
	if err := json.Indent(&out, doc.close(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// entryJSON merges s into the entry as read: keys keep their order, unknown
// keys and repeated keys are copied, and known keys are rewritten only when
// their value changed.
func (s Server) entryJSON() (json.RawMessage, error) {
	fields, isObject := objectMembers(s.raw, 0)
	var w objectWriter
	done := make(map[string]bool)
	for _, f := range fields {
		v, ok := f.value, true
		if !done[f.key] {
			done[f.key] = true
			var err error
			if k, known := keyNamed(f.key); known {
				if v, ok, err = k.merge(s, f.value); err != nil {
					return nil, err
				}
			}
		}
		if ok {
			if err := w.add(f.key, v); err != nil {
				return nil, err
			}
		}
	}
	for _, k := range entryKeys() {
		if done[k.name] {
			continue
		}
		v, ok, err := k.merge(s, nil)
		if err != nil {
			return nil, err
		}
		if ok {
			if err := w.add(k.name, v); err != nil {
				return nil, err
			}
		}
	}
	if w.n == 0 && s.raw != nil && !isObject {
		return s.raw, nil // an entry we could not read and nobody filled in
	}
	return w.close(), nil
}

// defaultTransport is the transport an entry gets when "type" is left out.
func (s Server) defaultTransport() Transport {
	switch {
	case s.Command != "":
		return TransportStdio
	case s.URL != "":
		return TransportHTTP
	}
	return ""
}

// encode marshals v without HTML escaping, so URLs keep a readable '&'.
func encode(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// objectWriter builds a compact JSON object one member at a time, in order.
type objectWriter struct {
	buf bytes.Buffer
	n   int
}

// add appends a member whose value is already JSON.
func (w *objectWriter) add(key string, value json.RawMessage) error {
	k, err := encode(key)
	if err != nil {
		return err
	}
	if w.n == 0 {
		w.buf.WriteByte('{')
	} else {
		w.buf.WriteByte(',')
	}
	w.n++
	w.buf.Write(k)
	w.buf.WriteByte(':')
	w.buf.Write(value)
	return nil
}

// close returns the finished object.
func (w *objectWriter) close() json.RawMessage {
	if w.n == 0 {
		return json.RawMessage("{}")
	}
	w.buf.WriteByte('}')
	return w.buf.Bytes()
}

// writeNewFile creates path with mode 0600, failing with fs.ErrExist rather
// than replacing a file someone else just made.
func writeNewFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}
