package hosts

import (
	"strconv"
	"strings"
)

// A host that gives up on a tool call after a time of its own, whatever
// progress the server reports, takes a person's answer away from a server
// that asks for one. Some hosts take such a limit per server: Codex's
// tool_timeout_sec (codex-rs McpServerConfig) and Zed's "timeout"
// (settings_content ContextServerCommand, 60 by default), in seconds;
// Goose's "timeout" (ExtensionConfig in crates/goose/src/agents/
// extension.rs, 300 by default) and Hermes Agent's (its MCP config
// reference: 300 by default), in seconds; Gemini CLI's and Qwen Code's
// "timeout" (MCPServerConfig, MCP_DEFAULT_TIMEOUT_MSEC: 10 minutes), in
// milliseconds. Routing an entry of theirs gives each call LimitSeconds:
// a member added after the command, or a smaller number raised, either
// marked with a note (a comment) that says why and, for a raised number,
// what it was. Unroute takes back only what carries the note, exactly as
// it was written. A Codex entry written on one line ({ command = … })
// takes no comment, and keeps Codex's limit; so does a host whose file
// takes no comments at all (Cline's strict JSON).

// limitRule is how a host limits a tool call's time per server.
type limitRule struct {
	entry string // the entry member; "" for a host without one
	// global is the top-level member that gives the entries without one
	// their limit instead of the host's default, "" when there is none: a
	// longer one there is left to count.
	global string
	unit   int // how many of the member's units make a second
}

// want is the number routing writes: LimitSeconds in the rule's units.
func (r limitRule) want() int { return LimitSeconds * r.unit }

// limitRuleOf is how the host h limits a tool call's time per server.
func limitRuleOf(h Host) limitRule {
	switch h.ID {
	case "codex":
		return limitRule{entry: "tool_timeout_sec", unit: 1}
	case "zed", "zed-flatpak":
		return limitRule{entry: "timeout", global: "context_server_timeout", unit: 1}
	case "goose", "hermes":
		return limitRule{entry: "timeout", unit: 1}
	case "gemini", "qwen":
		return limitRule{entry: "timeout", unit: 1000}
	}
	return limitRule{}
}

// LimitSeconds is the time routing gives a tool call of a host with a
// per-server limit: time for a person to read and answer.
const LimitSeconds = 1800

// The note on a limit route wrote: the words, and what a raised one was.
const (
	limitWords = "Elicit Desk: 30 minutes for a person to answer"
	limitWas   = " (was "
)

// limit is where an entry gives its host's time limit on a tool call.
type limit struct {
	key   string // the member's name; "" when the host has no limit
	want  int    // the number route writes, in the member's units
	given bool   // the entry gives it, written in any way
	add   bool   // a member can be added to the entry with a note
	// number is its number, when given as a plain number; else -1.
	number float64
	// value is the number's literal, where route can raise it and note
	// it; empty when it is given otherwise.
	value span
	// note is where a note goes: the end of the line (TOML and YAML,
	// whose comments run to it), or just after the value (JSON's /* */).
	note int
	// from is where the member begins, with the line break or comma
	// before it that route writes; -1 when it has none.
	from int
}

// ReasonLimitNote is why an entry whose time limit carries Elicit Desk's
// note but that is not routed is left alone: unroute would take the note
// for its own.
const ReasonLimitNote = "its time limit carries Elicit Desk's note (“" + limitWords + "”) but the entry is not routed; remove the note and route again"

// noteText is the note route writes after a limit in c's format, with
// the literal a raised limit was, "" for one it added.
func (c *Config) noteText(was string) string {
	open, closing := c.commentMarks()
	if was != "" {
		return open + limitWords + limitWas + was + ")" + closing
	}
	return open + limitWords + closing
}

// commentMarks are how a note opens and closes in c's format: a TOML or
// YAML comment runs to the end of its line, a JSON one (JSONC) to "*/".
func (c *Config) commentMarks() (open, closing string) {
	if c.lineComments() {
		return " # ", ""
	}
	return " /* ", " */"
}

// lineComments reports whether c's comments run to the end of the line.
func (c *Config) lineComments() bool {
	return c.Host.Format == TOML || c.Host.Format == YAML
}

// limitEdits raise e's time limit to LimitSeconds, where the host has one
// and the entry gives none or a smaller number, and say what it becomes;
// routed says whether e is routed already, when a note of ours is its
// own. A note on an entry that is not routed is not: skip says so.
func (c *Config) limitEdits(e entry, routed bool) (edits []edit, change, skip string) {
	l := e.limit
	if l.key == "" {
		return nil, "", ""
	}
	if _, _, ok := c.limitNoted(l); ok {
		if routed {
			return nil, "", ""
		}
		return nil, "", ReasonLimitNote
	}
	set := strconv.Itoa(l.want)
	switch {
	case !l.given && l.add:
		at := c.limitAt(e)
		member := strings.TrimSuffix(e.addPrefix, c.memberText("args", "")) + c.memberText(l.key, set) + c.noteText("")
		return []edit{{span{at, at}, member}}, c.memberText(l.key, set), ""
	case l.given && l.value != (span{}) && l.number >= 0 && l.number < float64(l.want) && numberLiteral(l.value.of(c.data)):
		was := l.value.of(c.data)
		return []edit{{l.value, set}, {span{l.note, l.note}, c.noteText(was)}}, c.memberText(l.key, set) + " (was " + was + ")", ""
	}
	return nil, "", ""
}

// memberText is key with value as c's format writes a member.
func (c *Config) memberText(key, value string) string {
	switch c.Host.Format {
	case TOML:
		return key + " = " + value
	case YAML:
		return key + ": " + value
	}
	return quote(key) + ": " + value
}

// limitAt is where a new limit goes in e: after the command, and after
// the args route added there when e is routed. In TOML and YAML it must
// start a line, which a comment after those args would end.
func (c *Config) limitAt(e entry) int {
	if e.args != nil {
		lits := make([]string, len(e.args.elems))
		for i, el := range e.args.elems {
			lits[i] = el.of(c.data)
		}
		added := e.addPrefix + "[" + strings.Join(lits, ",") + "]"
		if at := e.addAt + len(added); strings.HasPrefix(string(c.data[e.addAt:]), added) && (!c.lineComments() || lineEnd(c.data, at) == at) {
			return at
		}
	}
	return e.addAt
}

// unlimitEdits undo limitEdits: a member with the note goes, a raised
// number gets back the literal its note keeps.
func (c *Config) unlimitEdits(e entry) (edits []edit, change string) {
	l := e.limit
	note, was, ok := c.limitNoted(l)
	switch {
	case !ok:
		return nil, ""
	case was != "":
		return []edit{{l.value, was}, {note, ""}}, c.memberText(l.key, was)
	case l.from < 0:
		return nil, "" // not on its own: not as route wrote it
	}
	return []edit{{span{l.from, note.end}, ""}}, l.key + " removed"
}

// limitNoted reports whether l carries the note limitEdits writes, where
// the note is, and the literal it raised, "" for a limit it added.
func (c *Config) limitNoted(l limit) (note span, was string, ok bool) {
	if !l.given || l.value == (span{}) || l.value.of(c.data) != strconv.Itoa(l.want) {
		return span{}, "", false
	}
	open, closing := c.commentMarks()
	head := open + limitWords
	// In JSON the note is just after the value; in TOML and YAML it is
	// somewhere after it, and runs to the line's end.
	start := l.note
	if c.lineComments() {
		i := strings.LastIndex(string(c.data[l.value.end:l.note]), head)
		if i < 0 {
			return span{}, "", false
		}
		start = l.value.end + i
	}
	text := string(c.data[start:])
	if !strings.HasPrefix(text, head) {
		return span{}, "", false
	}
	after, n := text[len(head):], len(head)
	if rest, raised := strings.CutPrefix(after, limitWas); raised {
		w, _, found := strings.Cut(rest, ")"+closing)
		if !found || !numberLiteral(w) {
			return span{}, "", false
		}
		was, n = w, n+len(limitWas)+len(w)+len(")"+closing)
	} else if strings.HasPrefix(after, closing) {
		n += len(closing)
	} else {
		return span{}, "", false
	}
	if c.lineComments() && start+n != l.note {
		return span{}, "", false
	}
	return span{start, start + n}, was, true
}

// numberLiteral reports whether s is written as a decimal number, the
// only time limits route raises, so that the note can keep it whole.
func numberLiteral(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789_+-.eE", r) }) < 0
}
