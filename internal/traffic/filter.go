package traffic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Filter picks entries: each of its terms must hold.
type Filter []term

// term is one word of a filter: a key (method, tool, id, dir, status,
// server, kind; "" for free text) and what it asks for.
type term struct {
	key, value string
}

// keys are the keys a filter's words may have, and what each matches.
// kindWords are kind:'s values.
const kindWords = "request, notification, result (ok), error or cancel (cancelled)"

var keys = []struct{ key, matches string }{
	{"method", "the method's name contains it"},
	{"tool", "tools/call's tool name contains it"},
	{"id", `the id, as JSON, is it (7, or "abc" in quotes)`},
	{"dir", "in (the server sent it) or out (sent to the server)"},
	{"status", "ok, error, cancelled, or an error's JSON-RPC code or HTTP status"},
	{"server", "the configured or bridged server's name is it"},
	{"host", "a bridged session's host name contains it"},
	{"session", "the bridged session's id is it"},
	{"kind", kindWords},
}

// FilterHelp says, a line a key, what the words of a filter match.
func FilterHelp() string {
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "  %-14s %s\n", k.key+":VALUE", k.matches)
	}
	fmt.Fprintf(&b, "  %-14s %s\n", "TEXT", "a method, tool, id, server or host name contains it")
	fmt.Fprintf(&b, "  %-14s %s\n", "", `a value with spaces goes in quotes: server:"my server"`)
	return b.String()
}

// ParseFilter reads the words of a filter: key:value ones (method: tool:
// id: dir: status: server: host: session: kind:) and free text, which a
// method, tool, id, server or host name contains. Every word must hold. A
// value in double quotes may hold spaces; an id's quotes are its JSON's.
func ParseFilter(words []string) (Filter, error) {
	var f Filter
	for _, w := range words {
		for _, field := range fields(w) {
			key, value, ok := strings.Cut(field, ":")
			if !ok {
				f = append(f, term{"", unquote(field)})
				continue
			}
			if key != "id" {
				value = unquote(value)
			}
			if !slices.ContainsFunc(keys, func(k struct{ key, matches string }) bool { return k.key == key }) {
				return nil, fmt.Errorf("%q: no filter key %q; the keys are %s", field, key, keyList())
			}
			if value == "" {
				return nil, fmt.Errorf("%q: say what %s: matches", field, key)
			}
			if key == "dir" && value != string(ToServer) && value != string(FromServer) {
				return nil, fmt.Errorf("%q: dir: is in (the server sent it) or out (sent to the server)", field)
			}
			if key == "kind" {
				k, ok := kindNamed(value)
				if !ok {
					return nil, fmt.Errorf("%q: kind: is %s", field, kindWords)
				}
				value = string(k)
			}
			f = append(f, term{key, value})
		}
	}
	return f, nil
}

// kindNamed is the kind a filter names: its own word, or the one the
// list shows for an answer (ok, cancelled).
func kindNamed(word string) (Kind, bool) {
	switch k := Kind(word); k {
	case Request, Notification, Result, Error, Cancel:
		return k, true
	case "ok":
		return Result, true
	case "cancelled":
		return Cancel, true
	}
	return "", false
}

// fields splits s at white space, but inside double quotes.
func fields(s string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
			cur.WriteRune(r)
		case !quoted && unicode.IsSpace(r):
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// unquote is v without the double quotes around it.
func unquote(v string) string {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		return v[1 : len(v)-1]
	}
	return v
}

// keyList names the keys in words.
func keyList() string {
	var names []string
	for _, k := range keys {
		names = append(names, k.key+":")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Match reports whether e passes every term of f.
func (f Filter) Match(e Entry) bool {
	for _, t := range f {
		if !t.match(e) {
			return false
		}
	}
	return true
}

func (t term) match(e Entry) bool {
	switch t.key {
	case "method":
		return strings.Contains(string(e.Method), t.value)
	case "tool":
		return strings.Contains(string(e.Tool), t.value)
	case "id":
		return string(e.ID) == t.value
	case "dir":
		return string(e.Dir) == t.value
	case "server":
		return e.Server == t.value
	case "host":
		return strings.Contains(string(e.Host), t.value)
	case "session":
		return e.Session == t.value
	case "kind":
		return string(e.Kind) == t.value
	case "status":
		return t.status(e)
	}
	return strings.Contains(string(e.Method), t.value) || strings.Contains(string(e.Tool), t.value) ||
		strings.Contains(string(e.ID), t.value) || strings.Contains(e.Server, t.value) || strings.Contains(string(e.Host), t.value)
}

// status matches an answer's outcome: its word, or a code or HTTP status.
func (t term) status(e Entry) bool {
	switch t.value {
	case "ok", "error", "cancelled":
		k, _ := kindNamed(t.value)
		return e.Kind == k
	}
	n, err := strconv.Atoi(t.value)
	return err == nil && e.Kind == Error && (e.Code == n || e.Status == n)
}
