package hosts

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// YAML configs (Goose's, Continue's, Hermes's) are read with yaml.v3,
// whose nodes say on which line and in which column each key and value
// starts. From there the end of a value is found by reading its literal,
// and every literal found is read back alone as YAML to check that it is
// the value the parser saw. Only what can be placed exactly is edited: a
// plain or quoted value on one line, args as a block or a flow sequence
// of such values. A block scalar (| or >), a value folded over lines, a
// tag, an anchor or an alias, or an entry written as a flow mapping
// ({…}) makes the entry one that is shown and never routed.

// yamlKeys are the names a YAML host gives an entry's members.
type yamlKeys struct {
	command, args, env, url string
	// named says the servers are a sequence of mappings, each named by
	// its "name" member (Continue's), not a mapping by name.
	named bool
}

// yamlKeysOf are the member names of entries of shape.
func yamlKeysOf(shape Shape) yamlKeys {
	switch shape {
	case Goose:
		return yamlKeys{command: "cmd", args: "args", env: "envs", url: "uri"}
	case Continue:
		return yamlKeys{command: "command", args: "args", env: "env", url: "url", named: true}
	}
	return yamlKeys{command: "command", args: "args", env: "env", url: "url"}
}

// parseYAML reads a YAML config. The file is refused whole when it is not
// valid YAML (a key given twice included), or when its line breaks are
// ones whose columns could be counted otherwise than here.
func parseYAML(h Host, data []byte) ([]Server, []entry, error) {
	if err := yamlPlaceable(data); err != nil {
		return nil, nil, err
	}
	if err := yaml.Unmarshal(data, new(any)); err != nil {
		return nil, nil, fmt.Errorf("not valid YAML: %v", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("not valid YAML: %v", err)
	}
	if len(doc.Content) == 0 || null(doc.Content[0]) {
		return nil, nil, nil // an empty file
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, nil, errors.New("not a YAML mapping")
	}
	y := yamlDoc{data: data, lines: lineStarts(data), keys: yamlKeysOf(h.Shape), shape: h.Shape, limit: limitRuleOf(h)}
	_, list := yamlMember(top, h.Key)
	if list == nil || null(list) {
		return nil, nil, nil
	}
	if list.Anchor != "" || list.Kind == yaml.AliasNode { // an entry's own anchors are its own refusal
		return nil, nil, fmt.Errorf("%q at line %d uses a YAML anchor or alias, which Elicit Desk cannot edit exactly", h.Key, list.Line)
	}
	var servers []Server
	var entries []entry
	add := func(s Server, e entry) {
		servers, entries = append(servers, s), append(entries, e)
	}
	if y.keys.named {
		if list.Kind != yaml.SequenceNode {
			return nil, nil, fmt.Errorf("%q at line %d is not a list", h.Key, list.Line)
		}
		seen := map[string]int{}
		for _, m := range list.Content {
			name := ""
			if _, n := yamlMember(m, "name"); n != nil && n.Kind == yaml.ScalarNode {
				name = n.Value
			}
			if at, dup := seen[name]; dup && name != "" {
				return nil, nil, fmt.Errorf("server %q is named twice in %q, at lines %d and %d; the host uses only one of them", name, h.Key, at, m.Line)
			}
			seen[name] = m.Line
			add(y.server(m, name))
		}
		return servers, entries, nil
	}
	if list.Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("%q at line %d is not a mapping", h.Key, list.Line)
	}
	for i := 0; i+1 < len(list.Content); i += 2 {
		add(y.server(list.Content[i+1], list.Content[i].Value))
	}
	return servers, entries, nil
}

// yamlPlaceable reports why data's positions cannot be placed exactly:
// yaml.v3 counts columns in characters and breaks lines at a lone CR
// and at NEL, LS and PS too.
func yamlPlaceable(data []byte) error {
	switch {
	case !utf8.Valid(data):
		return errors.New("not UTF-8, the only encoding Elicit Desk edits YAML in")
	case bytes.ContainsAny(data, "\u0085\u2028\u2029"):
		return errors.New("a line breaks at a character other than a newline (NEL, LS or PS), which Elicit Desk cannot edit exactly")
	case bytes.Count(data, []byte("\r")) != bytes.Count(data, []byte("\r\n")):
		return errors.New("a line ends in a carriage return alone, which Elicit Desk cannot edit exactly")
	}
	return nil
}

// lineStarts are the offsets at which each line of data starts; the
// first after a byte order mark, which the parser does not count.
func lineStarts(data []byte) []int {
	starts := []int{0}
	if bytes.HasPrefix(data, []byte("\ufeff")) {
		starts[0] = len("\ufeff")
	}
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// yamlDoc is a YAML config being read: its bytes, where its lines start,
// and the names its host gives an entry's members.
type yamlDoc struct {
	data  []byte
	lines []int
	keys  yamlKeys
	shape Shape
	limit limitRule // the entries' time limit
}

// offset is where n starts in the data; -1 when its position is past
// its line.
func (y *yamlDoc) offset(n *yaml.Node) int {
	if n.Line < 1 || n.Line > len(y.lines) || n.Column < 1 {
		return -1
	}
	off := y.lines[n.Line-1]
	for range n.Column - 1 {
		r, size := utf8.DecodeRune(y.data[off:])
		if size == 0 || r == '\n' {
			return -1
		}
		off += size
	}
	return off
}

// scalar is where the literal of the scalar n is, when it is written on
// one line as a plain or quoted value, without a tag or an anchor.
func (y *yamlDoc) scalar(n *yaml.Node) (span, bool) {
	start := y.offset(n)
	if n == nil || n.Kind != yaml.ScalarNode || start < 0 || n.Anchor != "" || n.Style&(yaml.TaggedStyle|yaml.LiteralStyle|yaml.FoldedStyle|yaml.FlowStyle) != 0 {
		return span{}, false
	}
	data, end := y.data, -1
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		for i := start + 1; i < len(data) && data[i] != '\n'; i++ {
			if data[i] == '\\' {
				i++
			} else if data[i] == '"' {
				end = i + 1
				break
			}
		}
	case n.Style&yaml.SingleQuotedStyle != 0:
		for i := start + 1; i < len(data) && data[i] != '\n'; i++ {
			if data[i] == '\'' && i+1 < len(data) && data[i+1] == '\'' {
				i++
			} else if data[i] == '\'' {
				end = i + 1
				break
			}
		}
	default:
		if bytes.HasPrefix(data[start:], []byte(n.Value)) && !strings.Contains(n.Value, "\n") {
			end = start + len(n.Value)
		}
	}
	if end < 0 {
		return span{}, false
	}
	// The literal alone must read as the very value the parser saw.
	var alone yaml.Node
	if yaml.Unmarshal(data[start:end], &alone) != nil || len(alone.Content) != 1 {
		return span{}, false
	}
	a := alone.Content[0]
	if a.Kind != yaml.ScalarNode || a.Value != n.Value || a.Tag != n.Tag || a.Style != n.Style {
		return span{}, false
	}
	return span{start, end}, true
}

// sequence is where the elements of the sequence n are, when each is a
// scalar that scalar places. A block sequence's new elements go on lines
// of their own, "- " and all, as its first one is.
func (y *yamlDoc) sequence(n *yaml.Node) (*array, bool) {
	start := y.offset(n)
	if n.Kind != yaml.SequenceNode || start < 0 || n.Anchor != "" || n.Style&yaml.TaggedStyle != 0 {
		return nil, false
	}
	a := &array{}
	for _, el := range n.Content {
		s, ok := y.scalar(el)
		if !ok {
			return nil, false
		}
		a.elems = append(a.elems, s)
	}
	if n.Style&yaml.FlowStyle != 0 {
		if y.data[start] != '[' {
			return nil, false
		}
		a.open = start + 1
		return a, true
	}
	if len(a.elems) == 0 {
		return nil, false
	}
	first := a.elems[0].start
	from := lineBegin(y.data, first)
	dash := string(y.data[from:first]) // "  - "
	rest, ok := strings.CutPrefix(strings.TrimLeft(dash, " "), "-")
	if !ok || rest == "" || strings.Trim(rest, " ") != "" {
		return nil, false
	}
	a.open, a.block = first, y.lineBreak(from)+dash
	return a, true
}

// lineBegin is the offset at which the line that off is on starts.
func lineBegin(data []byte, off int) int {
	return bytes.LastIndexByte(data[:off], '\n') + 1
}

// lineBreak is the line break ending the line before the one starting
// at from, or the one this file's lines end with.
func (y *yamlDoc) lineBreak(from int) string {
	if from >= 2 && y.data[from-2] == '\r' || from < 2 && bytes.Contains(y.data, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

// keyLine is where a member goes after the member whose key is k and
// whose value ends at end: the next line, indented as k, which must start
// its line (after the "- " of a sequence's entry at most); ok is false
// when it does not.
func (y *yamlDoc) keyLine(k *yaml.Node, end int, name string) (at int, prefix string, ok bool) {
	start := y.offset(k)
	if start < 0 {
		return 0, "", false
	}
	from := lineBegin(y.data, start)
	indent := string(y.data[from:start])
	if strings.Trim(indent, " -") != "" {
		return 0, "", false
	}
	at = lineEnd(y.data, end)
	brk := "\n"
	if at < len(y.data) && y.data[at] == '\r' || at == len(y.data) && bytes.Contains(y.data, []byte("\r\n")) {
		brk = "\r\n"
	}
	return at, brk + strings.Repeat(" ", utf8.RuneCountInString(indent)) + name + ": ", true
}

// server reads the entry m called name, and where its command line is.
func (y *yamlDoc) server(m *yaml.Node, name string) (Server, entry) {
	s := Server{Name: name}
	k := y.keys
	switch {
	case anchored(m):
		s.Err = errors.New("it uses a YAML anchor, alias or merge, which Elicit Desk cannot edit exactly")
	case m.Kind != yaml.MappingNode:
		s.Err = fmt.Errorf("the entry at line %d is not a mapping", m.Line)
	case m.Style&yaml.FlowStyle != 0:
		s.Err = errors.New("it is written as a flow mapping ({…}), which Elicit Desk cannot edit exactly")
	case k.named && name == "":
		s.Err = fmt.Errorf("the entry at line %d has no name", m.Line)
	}
	if s.Err != nil {
		return s, entry{}
	}
	var kind string
	read := func(key string, into any) {
		if s.Err != nil {
			return
		}
		if _, v := yamlMember(m, key); v != nil && !null(v) {
			if err := yamlValue(v, into); err != nil {
				s.Err = fmt.Errorf("%q at line %d %v", key, v.Line, err)
			}
		}
	}
	read("type", &kind)
	read(k.command, &s.Command)
	read(k.args, &s.Args)
	read(k.env, &s.Env)
	read("cwd", &s.Cwd)
	read(k.url, &s.URL)
	read("headers", &s.Headers)
	if s.Err != nil {
		return s, entry{}
	}
	if y.shape == Goose {
		switch kind {
		case "stdio":
			s.Transport = config.TransportStdio
		case "streamable_http":
			s.Transport = config.TransportHTTP
		case "sse":
			s.Transport = config.TransportSSE
		default:
			s.Err = fmt.Errorf("an extension of type %q, which Goose runs by itself", kind)
			return s, entry{}
		}
	} else {
		s.Transport = transport(kind, s.Command != "", s.URL != "")
	}
	switch {
	case s.Transport == "":
		s.Err = fmt.Errorf("the entry at line %d has neither a command nor a url", m.Line)
	case s.Transport == config.TransportStdio && s.Command == "":
		s.Err = fmt.Errorf("the entry at line %d has no command", m.Line)
	}
	if s.Err != nil {
		return s, entry{}
	}
	var e entry
	if s.Transport != config.TransportStdio {
		e = y.remote(m, kind)
	} else if stdio, err := y.stdio(m); err != nil {
		s.Err = err
		return s, stdio
	} else {
		e = stdio
	}
	e.limit = y.limitOf(m, e)
	return s, e
}

// limitOf is the time limit on a tool call that m gives, where the host
// has one: a number written as a plain literal on its own line can be
// raised, and one can be added where e takes a line after its command.
func (y *yamlDoc) limitOf(m *yaml.Node, e entry) limit {
	rule := y.limit
	if rule.entry == "" {
		return limit{}
	}
	l := limit{key: rule.entry, want: rule.want(), add: e.addPrefix != "", number: -1, from: -1}
	key, v := yamlMember(m, rule.entry)
	if key == nil {
		return l
	}
	l.given = true
	at, ok := y.scalar(v)
	if !ok || v.Tag != "!!int" && v.Tag != "!!float" || v.Decode(&l.number) != nil {
		l.number = -1
		return l
	}
	l.value, l.note = at, lineEnd(y.data, at.end)
	if k := y.offset(key); k >= 0 {
		l.from = lineStart(y.data, k)
	}
	return l
}

// stdio is where a stdio entry's command, args, type and env are.
func (y *yamlDoc) stdio(m *yaml.Node) (entry, error) {
	k := y.keys
	key, cmd := yamlMember(m, k.command)
	var e entry
	var ok bool
	if e.cmd, ok = y.scalar(cmd); !ok || cmd.Tag != "!!str" {
		return entry{}, errors.New(uneditable(k.command))
	}
	if e.key, ok = y.scalar(key); !ok {
		return entry{}, errors.New(uneditable(k.command))
	}
	at, prefix, addable := y.keyLine(key, e.cmd.end, k.args)
	if _, args := yamlMember(m, k.args); args != nil {
		if e.args, ok = y.sequence(args); !ok {
			return entry{}, errors.New(uneditable(k.args))
		}
	} else if !addable {
		return entry{}, errors.New(uneditable(k.command))
	}
	if addable {
		e.addAt, e.addPrefix = at, prefix
	}
	y.kindAndMaps(m, &e, k.env)
	return e, nil
}

// remote is where a remote entry's url, type and headers are, and why it
// cannot be routed, if it cannot.
func (y *yamlDoc) remote(m *yaml.Node, kind string) entry {
	k := y.keys
	key, u := yamlMember(m, k.url)
	var e entry
	cmd, okCmd := y.scalar(u)
	name, okKey := y.scalar(key)
	at, prefix, addable := y.keyLine(key, cmd.end, k.args)
	if !okCmd || !okKey || !addable || u.Tag != "!!str" {
		return entry{refuse: uneditable(k.url)}
	}
	e.cmd, e.key, e.addAt, e.addPrefix = cmd, name, at, prefix
	y.kindAndMaps(m, &e, "headers")
	switch {
	case y.shape == Goose:
		e.refuse = "Goose runs a command only as an extension of type stdio, whose envs and headers are kept apart; route it by adding it to Elicit Desk instead"
	case y.shape == Continue && kind == "":
		e.refuse = `Continue tries a url without a "type" by more than one transport; give it "type: sse" or "type: streamable-http" to route it`
	}
	// Continue's requestOptions and Hermes's auth are how the host itself
	// reaches a url, which a command does not get.
	for _, other := range []string{k.command, k.args, k.env, "requestOptions", "auth"} {
		if key, _ := yamlMember(m, other); key != nil && e.refuse == "" {
			e.refuse = fmt.Sprintf("it has a url and %q too", other)
		}
	}
	return e
}

// kindAndMaps notes where e's type and its map member called maps are.
func (y *yamlDoc) kindAndMaps(m *yaml.Node, e *entry, maps string) {
	if _, kind := yamlMember(m, "type"); kind != nil {
		e.kind, _ = y.scalar(kind)
	}
	key, v := yamlMember(m, maps)
	if key == nil {
		return
	}
	at, ok := y.scalar(key)
	if !ok {
		return
	}
	e.maps = []span{at}
	if v.Kind == yaml.MappingNode {
		for i := 0; i < len(v.Content); i += 2 {
			if n, ok := y.scalar(v.Content[i]); ok {
				e.names = append(e.names, n)
			}
		}
	}
}

// yamlMember is the key and the value of m's member called key; nils when m
// has none.
func yamlMember(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Kind == yaml.ScalarNode && m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// null reports whether n is YAML's null: "~", "null" or nothing at all.
func null(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// anchored reports whether n or a node in it has an anchor, is an alias
// or merges one in ("<<"): an edit there would change another place too,
// or not the place the host reads.
func anchored(n *yaml.Node) bool {
	if n.Anchor != "" || n.Kind == yaml.AliasNode || n.Tag == "!!merge" {
		return true
	}
	for _, c := range n.Content {
		if anchored(c) {
			return true
		}
	}
	return false
}

// yamlValue sets into from the YAML value v: a string must be one, and
// lists and maps must hold scalars.
func yamlValue(v *yaml.Node, into any) error {
	switch into := into.(type) {
	case *string:
		if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
			return errors.New("is not a string")
		}
		*into = v.Value
	case *[]string:
		if v.Kind != yaml.SequenceNode {
			return errors.New("is not a list")
		}
		*into = make([]string, len(v.Content))
		for i, el := range v.Content {
			if el.Kind != yaml.ScalarNode || null(el) {
				return errors.New("holds a value that is not a string")
			}
			(*into)[i] = el.Value
		}
	case *map[string]string:
		if v.Kind != yaml.MappingNode {
			return errors.New("is not a mapping")
		}
		*into = make(map[string]string, len(v.Content)/2)
		for i := 0; i+1 < len(v.Content); i += 2 {
			if v.Content[i+1].Kind != yaml.ScalarNode {
				return errors.New("holds a value that is not a string")
			}
			(*into)[v.Content[i].Value] = v.Content[i+1].Value
		}
	}
	return nil
}
