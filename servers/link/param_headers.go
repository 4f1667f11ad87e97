package link

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// paramHeader is a tool parameter that revision 2026-07-28's x-mcp-header
// mirrors into an Mcp-Param-{Name} header on each tools/call.
type paramHeader struct {
	name string   // the header's name after Mcp-Param-
	path []string // the chain of properties leading to the parameter
}

// toolMarks is what the x-mcp-header marks of a tools/list result say.
type toolMarks struct {
	// headers are the parameters each tool mirrors into headers.
	headers map[string][]paramHeader
	// invalid are the tools whose marks break the rules of revision
	// 2026-07-28, with why: a client must leave them out.
	invalid map[string]string
	listed  []string // every tool the result lists
	next    string   // its nextCursor
}

// readToolMarks reads the x-mcp-header marks of a tools/list result. A
// mark must be a non-empty token, on a property whose type is string,
// integer or boolean (or a list of those), and no two marks of a tool may
// be the same ignoring case; marks count only where properties alone lead.
func readToolMarks(result json.RawMessage) toolMarks {
	var r struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
		NextCursor string `json:"nextCursor"`
	}
	marks := toolMarks{headers: make(map[string][]paramHeader), invalid: make(map[string]string)}
	if json.Unmarshal(result, &r) != nil {
		return marks
	}
	marks.next = r.NextCursor
	for _, t := range r.Tools {
		marks.listed = append(marks.listed, t.Name)
		if !bytes.Contains(t.InputSchema, []byte("x-mcp-header")) {
			continue
		}
		var hs []paramHeader
		if err := schemaHeaders(t.InputSchema, nil, &hs, map[string]bool{}, 0); err != nil {
			marks.invalid[t.Name] = err.Error()
			continue
		}
		marks.headers[t.Name] = hs
	}
	return marks
}

// markedProperty is what a property's schema says about x-mcp-header.
type markedProperty struct {
	Header     json.RawMessage            `json:"x-mcp-header"`
	Type       json.RawMessage            `json:"type"`
	Properties map[string]json.RawMessage `json:"properties"`
}

// schemaHeaders collects the marked properties reachable from schema
// through properties alone, failing on the first mark that breaks the
// rules; seen holds the marks so far, in lower case.
func schemaHeaders(schema json.RawMessage, path []string, out *[]paramHeader, seen map[string]bool, depth int) error {
	if depth > 32 {
		return nil
	}
	var s markedProperty
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		prop := s.Properties[name]
		var p markedProperty
		json.Unmarshal(prop, &p)
		at := append(path[:len(path):len(path)], name)
		if p.Header != nil {
			var header string
			switch {
			case !headerPrimitive(p.Type):
				return fmt.Errorf("property %q: x-mcp-header on a type other than string, integer or boolean: %s", strings.Join(at, "."), p.Type)
			case json.Unmarshal(p.Header, &header) != nil || !isToken(header):
				return fmt.Errorf("property %q: x-mcp-header %s is not a header name", strings.Join(at, "."), p.Header)
			case seen[strings.ToLower(header)]:
				return fmt.Errorf("property %q: x-mcp-header %q repeats another", strings.Join(at, "."), header)
			}
			seen[strings.ToLower(header)] = true
			*out = append(*out, paramHeader{name: header, path: at})
		}
		if err := schemaHeaders(prop, at, out, seen, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// headerPrimitive reports whether a schema's type, one name or a list,
// names only the types a header can carry.
func headerPrimitive(t json.RawMessage) bool {
	var names []string
	var one string
	if json.Unmarshal(t, &one) == nil {
		names = []string{one}
	} else if json.Unmarshal(t, &names) != nil {
		return false
	}
	for _, n := range names {
		if n != "string" && n != "integer" && n != "boolean" {
			return false
		}
	}
	return len(names) > 0
}

// isToken reports whether s is an HTTP field-name token (RFC 9110 tchar).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// paramValues returns the Mcp-Param-* headers a tools/call with these
// arguments carries for the tool's mirrored parameters.
func paramValues(hs []paramHeader, arguments json.RawMessage) map[string]string {
	out := make(map[string]string)
	for _, h := range hs {
		v := arguments
		for _, step := range h.path {
			var obj map[string]json.RawMessage
			if json.Unmarshal(v, &obj) != nil {
				v = nil
				break
			}
			v = obj[step]
		}
		if s, ok := primitive(v); ok {
			out["Mcp-Param-"+h.name] = headerValue(s)
		}
	}
	return out
}

// primitive is a string (empty too), integer or boolean JSON value as a
// header carries it; false for null, absent or anything else.
func primitive(v json.RawMessage) (string, bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || string(v) == "null" {
		return "", false
	}
	var x any
	d := json.NewDecoder(bytes.NewReader(v))
	d.UseNumber()
	if d.Decode(&x) != nil {
		return "", false
	}
	switch x := x.(type) {
	case string:
		return x, true // "" too: an empty argument is an empty header, not none
	case bool:
		if x {
			return "true", true
		}
		return "false", true
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return x.String(), true
		}
	}
	return "", false
}
