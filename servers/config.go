// Package servers owns servers.json, the list of MCP servers Elicit Desk
// connects to: loading it, saving it without losing other clients' keys,
// and watching it so edits apply without a restart.
package servers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/atomicfile"
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

// serversKey is the top-level key Claude Desktop and Cursor use for the server list.
const serversKey = "mcpServers"

// ProtocolVersions lists the MCP versions an entry may pin, oldest first,
// so the Servers window offers exactly what the loader accepts.
func ProtocolVersions() []string {
	return []string{"2025-06-18", "2025-11-25", "2026-07-28"}
}

// ServerConfig is one entry of mcpServers. Entries that cannot be used are
// still listed, with Err set, so the UI can show them beside the good ones.
type ServerConfig struct {
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

// Config is a parsed servers.json.
type Config struct {
	// Path is the file Save writes to.
	Path string
	// Servers are the entries in file order.
	Servers []ServerConfig

	top []member // top-level members as read, so Save keeps other clients' settings
}

// ConfigPath returns where servers.json lives under configHome (xdg.ConfigHome in the app).
func ConfigPath(configHome string) string {
	return filepath.Join(configHome, "elicitdesk", "servers.json")
}

// LoadConfig reads and parses the file at path. It fails only when the whole
// file is unusable; problems with single entries are reported in their Err.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := parseConfig(filepath.Base(path), data)
	if err != nil {
		return nil, err
	}
	c.Path = path
	return c, nil
}

// EnsureConfig loads the file at path, first creating it (and its directories)
// with only the demo server when it is missing, so a first start has something
// to connect to. An empty demo.Name becomes "demo".
func EnsureConfig(path string, demo ServerConfig) (*Config, error) {
	c, err := LoadConfig(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return c, err
	}
	if demo.Name == "" {
		demo.Name = "demo"
	}
	data, err := (&Config{Servers: []ServerConfig{demo}}).marshal()
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
	return LoadConfig(path)
}

// Server returns the first entry called name, for callers that hold a name from the UI.
func (c *Config) Server(name string) (ServerConfig, bool) {
	i := slices.IndexFunc(c.Servers, func(s ServerConfig) bool { return s.Name == name })
	if i < 0 {
		return ServerConfig{}, false
	}
	return c.Servers[i], true
}

// Save writes c to c.Path atomically, with entries in order and 2-space
// indent. Keys Elicit Desk does not know, and values it could not read, are
// written back as they were so other clients' settings survive; this needs a
// Config from LoadConfig or EnsureConfig rather than a fresh one.
func (c *Config) Save() error {
	data, err := c.marshal()
	if err != nil {
		return err
	}
	return atomicfile.Write(c.Path, data, 0o600)
}

// parseConfig parses a whole file; name prefixes positions in errors.
func parseConfig(name string, data []byte) (*Config, error) {
	src := source{name: name, data: bytes.TrimPrefix(data, []byte("\uFEFF"))}
	if err := json.Unmarshal(src.data, new(json.RawMessage)); err != nil {
		off := 0
		if se, ok := errors.AsType[*json.SyntaxError](err); ok {
			off = int(se.Offset) - 1 // Offset counts the offending byte
		}
		return nil, src.errorf(off, "%w", err)
	}
	members, ok := objectMembers(src.data, 0)
	if !ok {
		return nil, src.errorf(len(src.data)-len(bytes.TrimLeft(src.data, " \t\r\n")), "the file must hold a JSON object")
	}
	c := &Config{}
	found := false
	for _, m := range members {
		if m.key != serversKey {
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
func parseServers(src source, entries []member) []ServerConfig {
	seen := make(map[string]bool, len(entries))
	servers := make([]ServerConfig, 0, len(entries))
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
func parseServer(src source, e member) ServerConfig {
	s := ServerConfig{Name: e.key, raw: e.value}
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
		var verr *valueError
		switch f.key {
		case "command":
			s.Command, verr = decodeString(f.value)
		case "args":
			s.Args, verr = decodeStrings(f.value)
		case "env":
			s.Env, verr = decodeStringMap(f.value)
		case "cwd":
			s.Cwd, verr = decodeString(f.value)
		case "url":
			s.URL, verr = decodeString(f.value)
		case "headers":
			s.Headers, verr = decodeStringMap(f.value)
		case "type":
			s.Transport, verr = decodeTransport(f.value)
		case "disabled":
			s.Disabled, verr = decodeBool(f.value)
		case "protocolVersion":
			s.ProtocolVersion, verr = decodeString(f.value)
		case "maxWaiting":
			s.MaxWaiting, verr = decodeCount(f.value)
		case "maxPerMinute":
			s.MaxPerMinute, verr = decodeCount(f.value)
		default:
			warn(f.keyOff, "unknown key %q ignored", f.key)
			continue
		}
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
	validType := slices.Contains([]Transport{TransportStdio, TransportHTTP, TransportSSE}, s.Transport)
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
		if pu, err := url.Parse(s.URL); err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
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

// valueError is a problem off bytes into a JSON value.
type valueError struct {
	off int
	msg string
}

// decodeString reads a string; null reads as empty.
func decodeString(v json.RawMessage) (string, *valueError) {
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", &valueError{msg: "must be a string"}
	}
	return s, nil
}

// decodeTransport reads a "type" value without judging it.
func decodeTransport(v json.RawMessage) (Transport, *valueError) {
	s, verr := decodeString(v)
	return Transport(s), verr
}

// decodeBool reads a boolean; null reads as false.
func decodeBool(v json.RawMessage) (bool, *valueError) {
	var b bool
	if json.Unmarshal(v, &b) != nil {
		return false, &valueError{msg: "must be true or false"}
	}
	return b, nil
}

// decodeCount reads a whole number of at least 1.
func decodeCount(v json.RawMessage) (int, *valueError) {
	var n int
	if json.Unmarshal(v, &n) != nil || n < 1 {
		return 0, &valueError{msg: "must be a whole number of 1 or more"}
	}
	return n, nil
}

// decodeStrings reads an array of strings, pointing at the first bad item.
func decodeStrings(v json.RawMessage) ([]string, *valueError) {
	if string(v) == "null" {
		return nil, nil
	}
	items, ok := arrayElements(v, 0)
	if !ok {
		return nil, &valueError{msg: "must be an array of strings"}
	}
	var out []string
	for i, it := range items {
		s, verr := decodeString(it.value)
		if verr != nil {
			return nil, &valueError{off: it.valOff, msg: fmt.Sprintf("item %d must be a string", i)}
		}
		out = append(out, s)
	}
	return out, nil
}

// decodeStringMap reads an object of strings, pointing at the first bad member.
func decodeStringMap(v json.RawMessage) (map[string]string, *valueError) {
	if string(v) == "null" {
		return nil, nil
	}
	members, ok := objectMembers(v, 0)
	if !ok {
		return nil, &valueError{msg: "must be an object of strings"}
	}
	out := make(map[string]string, len(members))
	for _, m := range members {
		if _, dup := out[m.key]; dup {
			return nil, &valueError{off: m.keyOff, msg: fmt.Sprintf("has duplicate key %q", m.key)}
		}
		s, verr := decodeString(m.value)
		if verr != nil {
			return nil, &valueError{off: m.valOff, msg: fmt.Sprintf("value of %q must be a string", m.key)}
		}
		out[m.key] = s
	}
	return out, nil
}

// marshal renders c as the bytes of servers.json.
func (c *Config) marshal() ([]byte, error) {
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

// entryKeys are the entry keys Elicit Desk reads, in the order Save adds new ones.
func entryKeys() []string {
	return []string{"command", "args", "env", "cwd", "type", "url", "headers", "disabled", "protocolVersion", "maxWaiting", "maxPerMinute"}
}

// entryJSON merges s into the entry as read: keys keep their order, unknown
// keys and repeated keys are copied, and known keys are rewritten only when
// their value changed.
func (s ServerConfig) entryJSON() (json.RawMessage, error) {
	fields, isObject := objectMembers(s.raw, 0)
	var w objectWriter
	done := make(map[string]bool)
	for _, f := range fields {
		v, ok := f.value, true
		if !done[f.key] {
			done[f.key] = true
			var err error
			if v, ok, err = s.fieldJSON(f.key, f.value); err != nil {
				return nil, err
			}
		}
		if ok {
			if err := w.add(f.key, v); err != nil {
				return nil, err
			}
		}
	}
	for _, k := range entryKeys() {
		if done[k] {
			continue
		}
		v, ok, err := s.fieldJSON(k, nil)
		if err != nil {
			return nil, err
		}
		if ok {
			if err := w.add(k, v); err != nil {
				return nil, err
			}
		}
	}
	if w.n == 0 && s.raw != nil && !isObject {
		return s.raw, nil // an entry we could not read and nobody filled in
	}
	return w.close(), nil
}

// fieldJSON returns the value to write for key, given the value read (nil
// when absent); ok is false when the key should be left out. Unknown keys
// pass through.
func (s ServerConfig) fieldJSON(key string, old json.RawMessage) (v json.RawMessage, ok bool, err error) {
	switch key {
	case "command":
		return mergeField(old, s.Command, decodeString, s.Command == "", equal)
	case "args":
		return mergeField(old, s.Args, decodeStrings, len(s.Args) == 0, slices.Equal[[]string])
	case "env":
		return mergeField(old, s.Env, decodeStringMap, len(s.Env) == 0, maps.Equal[map[string]string])
	case "cwd":
		return mergeField(old, s.Cwd, decodeString, s.Cwd == "", equal)
	case "type":
		return mergeField(old, s.Transport, decodeTransport, s.Transport == "" || s.Transport == s.defaultTransport(), equal)
	case "url":
		return mergeField(old, s.URL, decodeString, s.URL == "", equal)
	case "headers":
		return mergeField(old, s.Headers, decodeStringMap, len(s.Headers) == 0, maps.Equal[map[string]string])
	case "disabled":
		return mergeField(old, s.Disabled, decodeBool, !s.Disabled, equal)
	case "protocolVersion":
		return mergeField(old, s.ProtocolVersion, decodeString, s.ProtocolVersion == "", equal)
	case "maxWaiting":
		return mergeField(old, s.MaxWaiting, decodeCount, s.MaxWaiting == 0, equal)
	case "maxPerMinute":
		return mergeField(old, s.MaxPerMinute, decodeCount, s.MaxPerMinute == 0, equal)
	}
	return old, old != nil, nil
}

// Limits are the entry's limits, falling back to def where it sets none.
func (s ServerConfig) Limits(def Limits) Limits {
	if s.MaxWaiting > 0 {
		def.Waiting = s.MaxWaiting
	}
	if s.MaxPerMinute > 0 {
		def.PerMinute = s.MaxPerMinute
	}
	return def
}

// defaultTransport is the transport an entry gets when "type" is left out.
func (s ServerConfig) defaultTransport() Transport {
	switch {
	case s.Command != "":
		return TransportStdio
	case s.URL != "":
		return TransportHTTP
	}
	return ""
}

// mergeField keeps the value read when it still says cur, or when it could
// not be read and cur is empty (so Save never loses what it did not
// understand); otherwise it encodes cur, leaving empty values out.
func mergeField[T any](old json.RawMessage, cur T, decode func(json.RawMessage) (T, *valueError), empty bool, eq func(T, T) bool) (json.RawMessage, bool, error) {
	if old != nil {
		prev, verr := decode(old)
		if (verr == nil && eq(prev, cur)) || (verr != nil && empty) {
			return old, true, nil
		}
	}
	if empty {
		return nil, false, nil
	}
	v, err := encode(cur)
	return v, err == nil, err
}

// equal compares comparable field values for mergeField.
func equal[T comparable](a, b T) bool { return a == b }

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
