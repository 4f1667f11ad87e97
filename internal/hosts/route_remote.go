package hosts

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"
	"golang.org/x/net/http/httpguts"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// routeRemoteEdits turn a remote entry into one that runs `exe bridge
// -name=KEY -url URL`: the url member becomes the command and its literal moves
// into the args, as the type's literal does, and "stdio" takes the type's
// place. Headers become the env, whose names the args list: their values,
// often secrets, stay out of the command line, which every user of the
// machine can read, and a host expands variables in env as in headers.
// Each name takes HeaderEnvPrefix, so that no header becomes a variable
// that changes how a process runs (LD_PRELOAD, PATH, HTTPS_PROXY).
// Every literal moves as written, so that unrouteRemoteEdits puts it back.
func (c *Config) routeRemoteEdits(s Server, e entry, exe string) ([]edit, []string, string) {
	if c.Host.Shape == OpenCode {
		return c.routeRemoteArgvEdits(s, e, exe)
	}
	if e.refuse != "" {
		return nil, nil, e.refuse
	}
	flag, ok := map[string]string{c.keyText("url"): flagURL, c.keyText("serverUrl"): flagServerURL, c.keyText("httpUrl"): flagHTTPURL}[e.key.of(c.data)]
	if !ok {
		return nil, nil, uneditable("url")
	}
	if reason := urlReason(s.URL); reason != "" {
		return nil, nil, reason
	}
	lits := append(quoted(nameArgs(s.Name, []string{"bridge"})), quote(flag), e.cmd.of(c.data))
	to := append(nameArgs(s.Name, []string{exe, "bridge"}), flag, s.URL)
	edits := []edit{{e.key, c.keyText("command")}, {e.cmd, quote(exe)}}
	if e.kind != (span{}) {
		lit := e.kind.of(c.data)
		kind, err := c.stringLiteral(lit)
		if _, ok := config.HostRemoteTransport(kind); err != nil || !ok {
			return nil, nil, fmt.Sprintf("its type %s is none the bridge knows (%s)", lit, strings.Join(config.HostRemoteTypes(), ", "))
		}
		lits, to = append(lits, quote(flagTransport), lit), append(to, flagTransport, kind)
		edits = append(edits, edit{e.kind, quote("stdio")})
	}
	if !config.IsRemoteURL(s.URL) {
		return nil, nil, "its url is not an http or https address, which the bridge cannot reach"
	}
	headers, names, skip := c.headerEdits(s, e, "env")
	if skip != "" {
		return nil, nil, skip
	}
	edits = append(edits, headers...)
	for _, name := range names {
		lits, to = append(lits, quote(flagHeaderEnv), quote(name)), append(to, flagHeaderEnv, name)
	}
	edits = append(edits, edit{span{e.addAt, e.addAt}, e.addPrefix + "[" + strings.Join(lits, ",") + "]"})
	return edits, to, ""
}

// headerEdits turn s's headers into the member envKey: its key renamed,
// each name prefixed with HeaderEnvPrefix. names are the headers' names,
// in order, for the bridge's -header-env; skip says why they cannot be.
func (c *Config) headerEdits(s Server, e entry, envKey string) (edits []edit, names []string, skip string) {
	if len(s.Headers) == 0 {
		return nil, nil, ""
	}
	if len(e.maps) == 0 || len(e.names) != len(s.Headers) {
		return nil, nil, uneditable("headers")
	}
	for _, m := range e.maps {
		if m.of(c.data) != c.keyText(c.headersKey()) {
			return nil, nil, uneditable("headers")
		}
		edits = append(edits, edit{m, c.keyText(envKey)})
	}
	names = slices.Sorted(maps.Keys(s.Headers))
	for _, name := range names {
		if !httpguts.ValidHeaderFieldName(name) {
			return nil, nil, fmt.Sprintf("its header name %q is not a valid HTTP header name", name)
		}
	}
	for _, n := range e.names {
		at := c.nameStart(n)
		edits = append(edits, edit{span{at, at}, HeaderEnvPrefix})
	}
	return edits, names, ""
}

// unheaderEdits undo headerEdits of the member envKey.
func (c *Config) unheaderEdits(e entry, envKey string) ([]edit, string) {
	if len(e.maps) == 0 {
		return nil, ReasonEdited
	}
	var edits []edit
	for _, m := range e.maps {
		if m.of(c.data) != c.keyText(envKey) {
			return nil, ReasonEdited
		}
		edits = append(edits, edit{m, c.keyText(c.headersKey())})
	}
	for _, n := range e.names {
		// An entry routed before names took the prefix has none to take off.
		if at := c.nameStart(n); strings.HasPrefix(string(c.data[at:n.end]), HeaderEnvPrefix) {
			edits = append(edits, edit{span{at, at + len(HeaderEnvPrefix)}, ""})
		}
	}
	return edits, ""
}

// urlReason says why raw cannot go on the bridge's command line, which
// every user of the computer can read: a part of it that often carries a
// credential. "" when it can.
func urlReason(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.User != nil || u.RawQuery != "":
		return ReasonURL
	case u.Fragment != "":
		return "its URL has a fragment (#…), which may be a token and which the bridge's command line would show to every user of this computer"
	case strings.Contains(u.Path, ";"):
		return "its URL has ;parameters, which may be a token and which the bridge's command line would show to every user of this computer"
	}
	for seg := range strings.SplitSeq(u.Path, "/") {
		if tokenLike(seg) {
			return "its URL has a path segment that looks like a token, which the bridge's command line would show to every user of this computer"
		}
	}
	return ""
}

// tokenLike reports whether a path segment looks like a generated secret
// (an API key, a UUID, base64): long, with letters and digits mixed many
// times over, which names people choose ("mcp", "v2", "server-2024") are not.
func tokenLike(seg string) bool {
	if len(seg) < 16 {
		return false
	}
	switches, last := 0, 0 // 1 after a letter, 2 after a digit
	for _, r := range seg {
		class := 0
		switch {
		case unicode.IsLetter(r):
			class = 1
		case unicode.IsDigit(r):
			class = 2
		default:
			continue
		}
		if last != 0 && class != last {
			switches++
		}
		last = class
	}
	return switches >= 4
}

// unrouteRemoteEdits undo routeRemoteEdits, taking each literal back from
// the args, when the args are still as route wrote them.
func (c *Config) unrouteRemoteEdits(e entry, b remoteBridge) ([]edit, string) {
	if c.Host.Shape == OpenCode {
		return c.unrouteRemoteArgvEdits(e, b)
	}
	if e.args == nil || e.key.of(c.data) != c.keyText("command") {
		return nil, ReasonEdited
	}
	lits := make([]string, len(e.args.elems))
	for i, el := range e.args.elems {
		lits[i] = el.of(c.data)
	}
	added := e.addPrefix + "[" + strings.Join(lits, ",") + "]"
	if !strings.HasPrefix(string(c.data[e.addAt:]), added) {
		return nil, ReasonEdited
	}
	key := map[string]string{flagURL: "url", flagServerURL: "serverUrl", flagHTTPURL: "httpUrl"}[b.urlFlag]
	edits := []edit{{e.key, c.keyText(key)}, {e.cmd, lits[b.urlAt]}, {span{e.addAt, e.addAt + len(added)}, ""}}
	if b.transport != "" {
		if e.kind == (span{}) || e.kind.of(c.data) != quote("stdio") {
			return nil, ReasonEdited
		}
		edits = append(edits, edit{e.kind, lits[b.urlAt+2]})
	}
	if len(b.headers) > 0 {
		unheaders, reason := c.unheaderEdits(e, "env")
		if reason != "" {
			return nil, reason
		}
		edits = append(edits, unheaders...)
	}
	return edits, ""
}

// HeaderEnvPrefix starts the name of the variable a routed remote entry's
// env gives a header's value in; the bridge's -header-env NAME reads it.
const HeaderEnvPrefix = "ELICITDESK_HEADER_"

// nameStart is where the characters of the key literal n start: after its
// quote, when it has one.
func (c *Config) nameStart(n span) int {
	if n.start < n.end && (c.data[n.start] == '"' || c.data[n.start] == '\'') {
		return n.start + 1
	}
	return n.start
}

// keyText is how routing writes the key name in c's format.
func (c *Config) keyText(name string) string {
	if c.Host.Format == TOML || c.Host.Format == YAML {
		return name
	}
	return quote(name)
}

// stringLiteral is the string the literal lit in c's format says.
func (c *Config) stringLiteral(lit string) (string, error) {
	var s string
	if c.Host.Format == YAML {
		return s, yaml.Unmarshal([]byte(lit), &s)
	}
	return s, json.Unmarshal([]byte(lit), &s)
}

// headersKey is the key of a remote entry's headers: Codex's own, or the
// one the JSON hosts share.
func (c *Config) headersKey() string { return headersKeyOf(c.Host) }

// headersKeyOf is the member h's remote entries give their headers in:
// Codex's http_headers, or headers.
func headersKeyOf(h Host) string {
	if h.Format == TOML && h.Shape != Grok {
		return "http_headers"
	}
	return "headers"
}

// uneditable is the reason an entry whose what is written in a way
// routing cannot take back exactly is left alone.
func uneditable(what string) string {
	return "its " + what + " is written in a way Elicit Desk cannot edit"
}
