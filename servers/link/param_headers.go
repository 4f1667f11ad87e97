package link

import (
	"bytes"
	"encoding/json"
	"strings"
)

// paramHeader is a tool parameter that revision 2026-07-28's x-mcp-header
// mirrors into an Mcp-Param-{Name} header on each tools/call.
type paramHeader struct {
	name string   // the header's name after Mcp-Param-
	path []string // the chain of properties leading to the parameter
}

// toolHeaders reads the x-mcp-header annotations of a tools/list result:
// tool name → its mirrored parameters. Annotations the spec does not
// allow (not a token, on a non-primitive, repeated) are left out.
func toolHeaders(result json.RawMessage) map[string][]paramHeader {
	var r struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &r) != nil {
		return nil
	}
	out := make(map[string][]paramHeader)
	for _, t := range r.Tools {
		if !bytes.Contains(t.InputSchema, []byte("x-mcp-header")) {
			continue
		}
		var hs []paramHeader
		schemaHeaders(t.InputSchema, nil, &hs, 0)
		seen := make(map[string]bool)
		var ok []paramHeader
		for _, h := range hs {
			if k := strings.ToLower(h.name); !seen[k] {
				seen[k] = true
				ok = append(ok, h)
			}
		}
		out[t.Name] = ok
	}
	return out
}

// schemaHeaders collects the annotated properties reachable from schema
// through properties alone, as x-mcp-header requires.
func schemaHeaders(schema json.RawMessage, path []string, out *[]paramHeader, depth int) {
	if depth > 32 {
		return
	}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return
	}
	for name, prop := range s.Properties {
		var p struct {
			Header *string `json:"x-mcp-header"`
			Type   string  `json:"type"`
		}
		json.Unmarshal(prop, &p)
		at := append(path[:len(path):len(path)], name)
		if p.Header != nil {
			if isToken(*p.Header) && (p.Type == "string" || p.Type == "integer" || p.Type == "boolean") {
				*out = append(*out, paramHeader{name: *p.Header, path: at})
			}
			continue
		}
		schemaHeaders(prop, at, out, depth+1)
	}
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

// primitive is a string, integer or boolean JSON value as a header
// carries it; false for null, absent or anything else.
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
		return x, x != ""
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
