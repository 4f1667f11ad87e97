package hosts

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// parseTOML reads a TOML config (Codex's, Grok Build's): go-toml decodes the values and
// checks the whole file, and its parser's ranges say where each value is.
// Servers are [KEY.NAME] tables, or inline tables under [KEY].
func parseTOML(h Host, data []byte) ([]Server, []entry, error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return nil, nil, fmt.Errorf("not valid TOML at line %d, column %d: %v", row, col, de)
		}
		return nil, nil, fmt.Errorf("not valid TOML: %v", err)
	}
	list, ok := doc[h.Key]
	if !ok {
		return nil, nil, nil
	}
	table, ok := list.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("%q is not a table", h.Key)
	}
	w := tomlWalk{data: data, key: h.Key, headers: headersKeyOf(h), limit: limitRuleOf(h).entry, at: map[string]*tomlEntry{}}
	w.walk()
	var servers []Server
	var entries []entry
	for _, name := range slices.Sorted(maps.Keys(table)) {
		if !slices.Contains(w.order, name) { // a shape the walk does not know: shown, never routed
			w.order = append(w.order, name)
			w.at[name] = &tomlEntry{}
		}
	}
	for _, name := range w.order {
		s := tomlServer(name, table[name], w.headers)
		te := w.at[name]
		e := te.stdio
		e.maps, e.names = te.env, te.envNames
		if s.Err == nil && s.Transport != config.TransportStdio {
			e = te.remote
			e.maps, e.names = te.headers, te.headerNames
			e.refuse = tomlRefusal(table[name].(map[string]any))
			if h.Shape == Grok && templated(s.Headers) {
				e.refuse = "Grok Build fills {{…}} in a header, not in the env routing moves the headers to; route it by adding it to Elicit Desk instead"
			}
			if e.cmd == (span{}) {
				e.refuse = uneditable("url")
			}
		}
		if s.Err == nil && s.Transport == config.TransportStdio && e.cmd == (span{}) {
			s.Err = errors.New("its command is written in a way Elicit Desk cannot edit")
		}
		if s.Err != nil {
			e = entry{}
		} else {
			e.limit = tomlLimit(h, te.limit, table[name].(map[string]any))
			e.limit.add = !strings.HasPrefix(e.addPrefix, ",") // a comment would end the one-line entry
		}
		servers, entries = append(servers, s), append(entries, e)
	}
	return servers, entries, nil
}

// tomlLimit is an entry's time limit on a tool call, where the walk found
// it (at) and as decoded from the entry t.
func tomlLimit(h Host, at limit, t map[string]any) limit {
	rule := limitRuleOf(h)
	v, given := t[rule.entry]
	at.key, at.want, at.given, at.number = rule.entry, rule.want(), given, -1
	switch n := v.(type) {
	case int64:
		at.number = float64(n)
	case float64:
		at.number = n
	}
	return at
}

// tomlRefusal says why a remote entry of Codex cannot be routed, if it
// cannot: the bridge, a command, does not get what it names.
func tomlRefusal(t map[string]any) string {
	for _, key := range []string{"bearer_token_env_var", "env_http_headers"} {
		if _, ok := t[key]; ok {
			return fmt.Sprintf("its %s names a variable of Codex's environment, which Codex does not pass on to a command", key)
		}
	}
	for _, key := range []string{"command", "args", "env"} {
		if _, ok := t[key]; ok {
			return fmt.Sprintf("it has a url and %q too", key)
		}
	}
	return ""
}

// templated reports whether a header value has a {{placeholder}}, which
// Grok Build fills in headers alone ({{session_id}}).
func templated(headers map[string]string) bool {
	for _, v := range headers {
		if strings.Contains(v, "{{") {
			return true
		}
	}
	return false
}

// tomlServer reads an entry from its decoded value, its headers from the
// member headers.
func tomlServer(name string, v any, headers string) Server {
	s := Server{Name: name}
	t, ok := v.(map[string]any)
	if !ok {
		s.Err = errors.New("the entry is not a table")
		return s
	}
	var errs []error
	get := func(key string, into any) {
		if err := tomlValue(t[key], into); err != nil {
			errs = append(errs, fmt.Errorf("%q %v", key, err))
		}
	}
	get("command", &s.Command)
	get("args", &s.Args)
	get("env", &s.Env)
	get("cwd", &s.Cwd)
	get("url", &s.URL)
	get(headers, &s.Headers)
	s.Transport = transport("", s.Command != "", s.URL != "")
	s.Err = errors.Join(errs...)
	if s.Err == nil && s.Transport == "" {
		s.Err = errors.New("the entry has neither a command nor a url")
	}
	return s
}

// tomlValue sets into from a decoded TOML value of the same shape; absent is fine.
func tomlValue(v any, into any) error {
	if v == nil {
		return nil
	}
	switch into := into.(type) {
	case *string:
		s, ok := v.(string)
		if !ok {
			return errors.New("is not a string")
		}
		*into = s
	case *[]string:
		list, ok := v.([]any)
		if !ok {
			return errors.New("is not an array")
		}
		*into = make([]string, len(list))
		for i, el := range list {
			if (*into)[i], ok = el.(string); !ok {
				return errors.New("holds a value that is not a string")
			}
		}
	case *map[string]string:
		t, ok := v.(map[string]any)
		if !ok {
			return errors.New("is not a table")
		}
		*into = make(map[string]string, len(t))
		for k, el := range t {
			if (*into)[k], ok = el.(string); !ok {
				return errors.New("holds a value that is not a string")
			}
		}
	}
	return nil
}

// tomlWalk finds where each server's command, url, args, env, headers
// and time limit are.
type tomlWalk struct {
	data    []byte
	key     string
	headers string // the key of a remote entry's headers
	limit   string // the key of the time limit
	p       unstable.Parser
	at      map[string]*tomlEntry
	order   []string
}

// tomlEntry is what the walk found of one server: its entry as a command
// and as a url, the key literals of its env and headers tables and
// of their members, and its time limit on a tool call.
type tomlEntry struct {
	stdio, remote         entry
	env, headers          []span
	envNames, headerNames []span
	limit                 limit
}

func (w *tomlWalk) walk() {
	w.p.Reset(w.data)
	var table []string
	for w.p.NextExpression() {
		n := w.p.Expression()
		switch n.Kind {
		case unstable.Table, unstable.ArrayTable:
			var nodes []*unstable.Node
			table, nodes = keyParts(n.Key())
			if len(table) >= 2 && table[0] == w.key {
				w.table(w.entry(table[1]), table, nodes, 0)
			}
		case unstable.KeyValue:
			w.keyValue(n, table, false)
		}
	}
}

// entry returns the entry called name, first seen now or before.
func (w *tomlWalk) entry(name string) *tomlEntry {
	e, ok := w.at[name]
	if !ok {
		e = &tomlEntry{}
		w.at[name], w.order = e, append(w.order, name)
	}
	return e
}

// table notes where an entry's env or headers table is named, when
// the key path names it: path[2] is nodes[2-from].
func (w *tomlWalk) table(e *tomlEntry, path []string, nodes []*unstable.Node, from int) {
	if len(path) < 3 || from > 2 || 2-from >= len(nodes) {
		return
	}
	at := span{int(nodes[2-from].Raw.Offset), int(nodes[2-from].Raw.Offset + nodes[2-from].Raw.Length)}
	switch path[2] {
	case "env":
		e.env = append(e.env, at)
	case w.headers:
		e.headers = append(e.headers, at)
	}
}

// keyValue notes kv if it is a server's command, url, args, env or
// headers; inline is true inside an inline table, where a new member
// follows on the same line.
func (w *tomlWalk) keyValue(kv *unstable.Node, table []string, inline bool) {
	parts, nodes := keyParts(kv.Key())
	path := append(slices.Clone(table), parts...)
	value := kv.Value()
	if len(path) == 0 || path[0] != w.key {
		return
	}
	if len(path) == 1 && value.Kind == unstable.InlineTable { // mcp_servers = { name = {...} }
		members := value.Children()
		for members.Next() {
			w.keyValue(members.Node(), path, true)
		}
		return
	}
	if len(path) < 2 {
		return
	}
	te := w.entry(path[1])
	if len(path) >= 3 {
		w.table(te, path, nodes, len(table))
	}
	if len(path) == 2 && value.Kind == unstable.InlineTable {
		members := value.Children()
		for members.Next() {
			w.keyValue(members.Node(), path, true)
		}
		return
	}
	last := nodes[len(nodes)-1]
	if len(path) == 4 && len(parts) > 0 { // a member of env or the headers
		at := span{int(last.Raw.Offset), int(last.Raw.Offset + last.Raw.Length)}
		switch path[2] {
		case "env":
			te.envNames = append(te.envNames, at)
		case w.headers:
			te.headerNames = append(te.headerNames, at)
		}
		return
	}
	if len(path) != 3 {
		return
	}
	if (path[2] == "env" || path[2] == w.headers) && value.Kind == unstable.InlineTable {
		members := value.Children()
		for members.Next() {
			w.keyValue(members.Node(), path, true)
		}
		return
	}
	switch path[2] {
	case "command", "url":
		if value.Kind != unstable.String {
			return
		}
		e := &te.stdio
		if path[2] == "url" {
			e = &te.remote
		}
		e.cmd = span{int(value.Raw.Offset), int(value.Raw.Offset + value.Raw.Length)}
		e.key = span{int(last.Raw.Offset), int(last.Raw.Offset + last.Raw.Length)}
		prefix := string(w.data[kv.Raw.Offset:last.Raw.Offset]) + "args = " // a dotted key keeps its dots
		if inline {
			e.addAt, e.addPrefix = e.cmd.end, ", "+prefix
			return
		}
		e.addAt = lineEnd(w.data, int(kv.Raw.Offset+kv.Raw.Length))
		e.addPrefix = lineIndent(w.data[:kv.Raw.Offset]) + prefix
		if e.addPrefix[0] == ' ' { // the file's first line
			e.addPrefix = "\n" + prefix
		}
	case w.limit:
		if !inline && (value.Kind == unstable.Integer || value.Kind == unstable.Float) {
			start, end := int(kv.Raw.Offset), int(kv.Raw.Offset+kv.Raw.Length)
			te.limit = limit{value: span{int(value.Raw.Offset), int(value.Raw.Offset + value.Raw.Length)}, note: lineEnd(w.data, end), from: lineStart(w.data, start)}
		}
	case "args":
		if value.Kind != unstable.Array {
			return
		}
		end := int(kv.Raw.Offset + kv.Raw.Length)
		args := &array{open: bytes.IndexByte(w.data[last.Raw.Offset:end], '[') + int(last.Raw.Offset) + 1}
		elems := value.Children()
		for elems.Next() {
			if el := elems.Node(); el.Kind == unstable.String {
				args.elems = append(args.elems, span{int(el.Raw.Offset), int(el.Raw.Offset + el.Raw.Length)})
			}
		}
		te.stdio.args, te.remote.args = args, args
	}
}

// lineStart is the offset of the line break before the key that starts
// at off, "\r\n" or "\n": where a line that route added begins. -1 when
// the key is not the first thing on its line, or on the first line.
func lineStart(data []byte, off int) int {
	i := bytes.LastIndexByte(data[:off], '\n')
	if i < 0 || len(bytes.Trim(data[i+1:off], " \t")) > 0 {
		return -1
	}
	if i > 0 && data[i-1] == '\r' {
		i--
	}
	return i
}

// keyParts are the parts of a dotted key, unquoted, and their nodes.
func keyParts(it unstable.Iterator) ([]string, []*unstable.Node) {
	var parts []string
	var nodes []*unstable.Node
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
		nodes = append(nodes, it.Node())
	}
	return parts, nodes
}

// lineEnd is the offset of the line break ending the line that off is on,
// after any comment: where a new line goes.
func lineEnd(data []byte, off int) int {
	i := bytes.IndexByte(data[off:], '\n')
	if i < 0 {
		return len(data)
	}
	if i > 0 && data[off+i-1] == '\r' {
		i--
	}
	return off + i
}
