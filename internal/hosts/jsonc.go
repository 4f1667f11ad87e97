package hosts

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// parseJSON reads a JSON or JSONC config with hujson, which keeps every
// value's byte offsets, comments and trailing commas.
func parseJSON(h Host, data []byte) ([]Server, []entry, error) {
	if h.Format == JSON {
		var syntax *json.SyntaxError
		if err := json.Unmarshal(data, new(any)); errors.As(err, &syntax) {
			return nil, nil, fmt.Errorf("not valid JSON at %s: %v", lineCol(data, int(syntax.Offset)), syntax)
		} else if err != nil {
			return nil, nil, fmt.Errorf("not valid JSON: %v", err)
		}
	}
	root, err := hujson.Parse(data)
	if err != nil {
		return nil, nil, fmt.Errorf("not valid JSON: %v", err)
	}
	top, ok := root.Value.(*hujson.Object)
	if !ok {
		return nil, nil, errors.New("not a JSON object")
	}
	rule := limitRuleOf(h)
	longer := false // the host's own limit for all entries is long enough
	if g, _ := member(data, top, rule.global); rule.global != "" && g != nil {
		var n float64
		longer = decodeJSON(g.Value, &n) == nil && n >= float64(rule.want())
	}
	l := jsonList{data: data, h: h, limit: rule, longer: longer}
	if err := l.read(top, ""); err != nil {
		return nil, nil, err
	}
	if h.Projects == "" {
		return l.servers, l.entries, nil
	}
	projects, err := member(data, top, h.Projects)
	if projects == nil || err != nil {
		return l.servers, l.entries, err
	}
	obj, ok := projects.Value.Value.(*hujson.Object)
	if !ok {
		return nil, nil, fmt.Errorf("%q at %s is not an object", h.Projects, lineCol(data, projects.Value.StartOffset))
	}
	seen := make(map[string]int, len(obj.Members))
	for _, m := range obj.Members {
		dir := m.Name.Value.(hujson.Literal).String()
		if at, dup := seen[dir]; dup {
			return nil, nil, fmt.Errorf("project %q is given twice in %q, at %s and %s; the host uses only one of them", dir, h.Projects, lineCol(data, at), lineCol(data, m.Name.StartOffset))
		}
		seen[dir] = m.Name.StartOffset
		if p, ok := m.Value.Value.(*hujson.Object); ok {
			if err := l.read(p, dir); err != nil {
				return nil, nil, err
			}
		}
	}
	return l.servers, l.entries, nil
}

// jsonList reads the server lists of a JSON config into servers and
// entries: the user's, and those of projects, where the host has them.
type jsonList struct {
	data    []byte
	h       Host
	limit   limitRule // the entries' time limit
	longer  bool      // the host's own limit for all entries is long enough
	servers []Server
	entries []entry
}

// read reads the servers under the host's key in obj, those of project
// ("" for the user's own).
func (l *jsonList) read(obj *hujson.Object, project string) error {
	data, h := l.data, l.h
	list, err := member(data, obj, h.Key)
	if list == nil || err != nil {
		return err // no servers key: no servers
	}
	servers, ok := list.Value.Value.(*hujson.Object)
	if !ok {
		return fmt.Errorf("%q at %s is not an object", h.Key, lineCol(data, list.Value.StartOffset))
	}
	names := make(map[string]int, len(servers.Members))
	for _, m := range servers.Members {
		name := m.Name.Value.(hujson.Literal).String()
		if at, dup := names[name]; dup {
			return fmt.Errorf("server %q is named twice in %q, at %s and %s; the host uses only one of them", name, h.Key, lineCol(data, at), lineCol(data, m.Name.StartOffset))
		}
		names[name] = m.Name.StartOffset
		s, e := jsonServer(data, h.Shape, name, &m.Value, l.limit)
		s.Project = project
		e.limit.add = e.limit.add && !l.longer
		l.servers, l.entries = append(l.servers, s), append(l.entries, e)
	}
	return nil
}

// readMember decodes obj's member key, when it has one, into into, unless
// an earlier read failed (err): an entry reports its first problem.
func readMember(data []byte, obj *hujson.Object, key string, into any, err error) error {
	m, dup := member(data, obj, key)
	if m == nil || dup != nil || err != nil {
		return firstError(err, dup)
	}
	if err := decodeJSON(m.Value, into); err != nil {
		return fmt.Errorf("%q at %s: %v", key, lineCol(data, m.Value.StartOffset), err)
	}
	return nil
}

// member returns obj's member key, or nil without one. A key given twice
// is an error: hosts disagree on which one counts.
func member(data []byte, obj *hujson.Object, key string) (*hujson.ObjectMember, error) {
	var found *hujson.ObjectMember
	for i := range obj.Members {
		m := &obj.Members[i]
		if m.Name.Value.(hujson.Literal).String() != key {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("%q is given twice, at %s and %s; the host uses only one of them", key, lineCol(data, found.Value.StartOffset), lineCol(data, m.Value.StartOffset))
		}
		found = m
	}
	return found, nil
}

// urlKeys are the members a remote entry of shape gives its address in:
// url, or Windsurf's serverUrl, or Gemini CLI's httpUrl (Streamable HTTP).
func urlKeys(shape Shape) []string {
	if shape == Gemini {
		return []string{"url", "httpUrl"}
	}
	return []string{"url", "serverUrl"}
}

// jsonServer reads one entry, written in shape, and its time limit on a
// tool call as rule has it. Zed's older entries nest the
// command line as "command": {"path", "args", "env", "timeout"}; the rest
// put it in the entry itself.
func jsonServer(data []byte, shape Shape, name string, v *hujson.Value, rule limitRule) (Server, entry) {
	s := Server{Name: name}
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		s.Err = fmt.Errorf("the entry at %s is not an object", lineCol(data, v.StartOffset))
		return s, entry{}
	}
	if shape == OpenCode {
		return opencodeServer(data, s, obj, v.StartOffset)
	}
	line, cmdKey := obj, "command"
	if c, err := member(data, obj, "command"); err == nil && c != nil {
		if nested, ok := c.Value.Value.(*hujson.Object); ok {
			line, cmdKey = nested, "path"
		}
	}
	read := func(o *hujson.Object, key string, into any) { s.Err = readMember(data, o, key, into, s.Err) }
	read(line, cmdKey, &s.Command)
	read(line, "args", &s.Args)
	read(line, "env", &s.Env)
	read(obj, "cwd", &s.Cwd)
	var kind string
	read(obj, "type", &kind)
	for _, key := range urlKeys(shape) {
		if s.URL == "" {
			read(obj, key, &s.URL)
		}
	}
	read(obj, "headers", &s.Headers)
	var source string
	read(obj, "source", &source) // Zed
	args, _ := member(data, line, "args")
	var arr *hujson.Array
	if args != nil {
		if arr, ok = args.Value.Value.(*hujson.Array); !ok && s.Err == nil {
			s.Err = fmt.Errorf("%q at %s is not an array", "args", lineCol(data, args.Value.StartOffset))
		}
	}
	s.Transport = transport(kind, s.Command != "", s.URL != "")
	switch {
	case s.Err == nil && s.Transport == "" && source == "extension":
		s.Err = errors.New("an extension's server, which the host starts by itself")
	case s.Err == nil && s.Transport == "":
		s.Err = fmt.Errorf("the entry at %s has neither a command nor a url", lineCol(data, v.StartOffset))
	}
	if s.Err != nil {
		return s, entry{}
	}
	if s.Transport != config.TransportStdio {
		e := jsonRemote(data, obj, shape)
		if shape == Crush && e.refuse == "" && expands(s.Headers) {
			e.refuse = "Crush expands $ in a header but not in env, where routing moves the headers; route it by adding it to Elicit Desk instead"
		}
		e.limit = jsonLimit(data, obj, rule)
		return s, e
	}
	cmd, _ := member(data, line, cmdKey)
	e := jsonEntry(cmd)
	if kind, _ := member(data, obj, "type"); kind != nil {
		e.kind = valueSpan(kind.Value)
	}
	if env, _ := member(data, line, "env"); env != nil {
		e.maps, e.names = []span{valueSpan(env.Name)}, memberNames(env.Value)
	}
	if arr != nil {
		e.args = &array{open: args.Value.StartOffset + 1}
		for _, el := range arr.Elements {
			e.args.elems = append(e.args.elems, span{el.StartOffset, el.EndOffset})
		}
	}
	e.limit = jsonLimit(data, line, rule)
	return s, e
}

// jsonLimit is the time limit on a tool call that obj gives as the
// member rule names, where the host has one.
func jsonLimit(data []byte, obj *hujson.Object, rule limitRule) limit {
	l := limit{key: rule.entry, want: rule.want(), add: true, number: -1, from: -1}
	if rule.entry == "" {
		return limit{}
	}
	m, err := member(data, obj, rule.entry)
	if l.given = m != nil || err != nil; m == nil || err != nil {
		return l
	}
	lit, ok := m.Value.Value.(hujson.Literal)
	if !ok || lit.Kind() != '0' {
		return l
	}
	if n, err := strconv.ParseFloat(string(lit), 64); err == nil {
		l.number = n
	}
	l.value, l.note = valueSpan(m.Value), m.Value.EndOffset
	if comma := m.Name.StartOffset - len(m.Name.BeforeExtra) - 1; comma >= 0 && data[comma] == ',' {
		l.from = comma
	}
	return l
}

// jsonEntry is the entry whose command, or url, is m.
func jsonEntry(m *hujson.ObjectMember) entry {
	return entry{
		cmd:       valueSpan(m.Value),
		key:       valueSpan(m.Name),
		addAt:     m.Value.EndOffset,
		addPrefix: "," + lineIndent(m.Name.BeforeExtra) + `"args": `,
	}
}

// jsonRemote is where a remote entry's url, type and headers are.
func jsonRemote(data []byte, obj *hujson.Object, shape Shape) entry {
	var urls []*hujson.ObjectMember
	var keys []string
	for _, key := range urlKeys(shape) {
		if m, _ := member(data, obj, key); m != nil {
			urls, keys = append(urls, m), append(keys, key)
		}
	}
	e := jsonEntry(urls[0])
	if len(urls) > 1 {
		e.refuse = "it gives both " + keys[0] + " and " + keys[1]
	}
	kind, _ := member(data, obj, "type")
	if kind != nil {
		e.kind = valueSpan(kind.Value)
	}
	switch {
	case shape == Gemini && keys[0] == "url" && kind == nil:
		e.refuse = `Gemini CLI reaches a url without a "type" by SSE in older versions and by Streamable HTTP in newer ones; give it "type": "http" or "sse" to route it`
	case shape == Cline && kind == nil:
		e.refuse = `the host reaches a url without a "type" by SSE, or refuses it, as its versions differ; give it a "type" to route it`
	}
	var u string
	if decodeJSON(urls[0].Value, &u) == nil && shape == Kimi && sseURL(u) {
		e.refuse = `Kimi Code reaches a url whose path has a /sse segment by SSE, which the bridge does not guess; route it by adding it to Elicit Desk instead`
	}
	// Devin CLI's and Kimi Code's "transport" and "auth" say how the host
	// itself reaches the url, which would be left beside the command.
	for _, key := range []string{"transport", "auth"} {
		if m, _ := member(data, obj, key); m != nil {
			e.refuse = fmt.Sprintf("its %q says how the host itself reaches the url, which a command does not get", key)
		}
	}
	if h, _ := member(data, obj, "headers"); h != nil {
		e.maps, e.names = []span{valueSpan(h.Name)}, memberNames(h.Value)
	}
	for _, key := range []string{"command", "args", "env"} {
		if m, _ := member(data, obj, key); m != nil {
			e.refuse = fmt.Sprintf("it has a url and %q too", key)
		}
	}
	return e
}

// expands reports whether a header value has a $ that Crush expands.
func expands(headers map[string]string) bool {
	for _, v := range headers {
		if strings.Contains(v, "$") {
			return true
		}
	}
	return false
}

// sseURL reports whether raw's path has a /sse segment, by which fastmcp
// (infer_transport_type_from_url) reaches it by SSE.
func sseURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (strings.HasSuffix(u.Path, "/sse") || strings.Contains(u.Path, "/sse/"))
}

// memberNames are the key literals of v's members, when v is an object.
func memberNames(v hujson.Value) []span {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil
	}
	names := make([]span, len(obj.Members))
	for i, m := range obj.Members {
		names[i] = valueSpan(m.Name)
	}
	return names
}

func valueSpan(v hujson.Value) span { return span{v.StartOffset, v.EndOffset} }

// decodeJSON decodes a JSONC value as JSON.
func decodeJSON(v hujson.Value, into any) error {
	v = v.Clone()
	v.Standardize()
	return json.Unmarshal(v.Pack(), into)
}

// transport is how the host reaches an entry with the given "type": a
// remote type wins over a command the entry also has.
func transport(kind string, command, url bool) config.Transport {
	_, remote := config.HostRemoteTransport(kind)
	switch {
	case command && !(remote && url):
		return config.TransportStdio
	case url && kind == "sse":
		return config.TransportSSE
	case url:
		return config.TransportHTTP
	}
	return ""
}

// firstError is a, or b when a is nil: an entry reports its first problem.
func firstError(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
