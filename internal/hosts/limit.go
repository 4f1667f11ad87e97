package hosts

import (
	"strconv"
	"strings"
)

// A host that gives up on a tool call after a time of its own, whatever
// progress the server reports, takes a person's answer away from a server
// that asks for one. Codex does: each entry's tool_timeout_sec, in
// seconds (codex-rs McpServerConfig), or its default. Routing an entry of
// Codex therefore gives each call LimitSeconds: a line added after the
// command, or a smaller number raised, and either marked with limitNote,
// a comment that says why and, for a raised number, what it was. Unroute
// takes back only what carries the note, exactly as it was written. An
// entry written on one line ({ command = … }) takes no comment, and keeps
// Codex's limit.
const (
	limitKey = "tool_timeout_sec"
	// LimitSeconds is the time routing gives a tool call of a host with
	// a per-server limit: time for a person to read and answer.
	LimitSeconds = 1800
	limitNote    = " # Elicit Desk: 30 minutes for a person to answer"
	limitWas     = " (was "
)

// limit is where an entry gives its host's time limit on a tool call.
type limit struct {
	known bool    // the host has a per-server limit, and the entry was read for it
	given bool    // the entry gives it, written in any way
	secs  float64 // its number, when given as a plain number
	// value is the number's literal in a key = value line of its own,
	// start where that line's key starts and end where the line ends,
	// after any comment; value is empty when it is given otherwise.
	value      span
	start, end int
}

// ReasonLimitNote is why an entry whose time limit carries Elicit Desk's
// note but that is not routed is left alone: unroute would take the note
// for its own.
const ReasonLimitNote = "its " + limitKey + " carries Elicit Desk's note (“Elicit Desk: 30 minutes…”) but the entry is not routed; remove the note and route again"

// limitEdits raise e's time limit to LimitSeconds, where the host has one
// and the entry gives none or a smaller number, and say what it becomes;
// routed says whether e is routed already, when a note of ours is its
// own. A note on an entry that is not routed is not: skip says so.
func (c *Config) limitEdits(e entry, routed bool) (edits []edit, change, skip string) {
	l := e.limit
	if !l.known {
		return nil, "", ""
	}
	if _, ok := c.limitNoted(l); ok {
		if routed {
			return nil, "", ""
		}
		return nil, "", ReasonLimitNote
	}
	set := strconv.Itoa(LimitSeconds)
	switch {
	case !l.given && !strings.HasPrefix(e.addPrefix, ","): // a line of its own, as args is added
		line := strings.TrimSuffix(e.addPrefix, "args = ") + limitKey + " = " + set + limitNote
		return []edit{{span{c.limitAt(e), c.limitAt(e)}, line}}, limitKey + " = " + set, ""
	case l.given && l.value != (span{}) && l.secs >= 0 && l.secs < LimitSeconds && numberLiteral(l.value.of(c.data)):
		was := l.value.of(c.data)
		return []edit{{l.value, set}, {span{l.end, l.end}, limitNote + limitWas + was + ")"}}, limitKey + " = " + set + " (was " + was + ")", ""
	}
	return nil, "", ""
}

// limitAt is where a new time limit line goes in e: after the command's
// line, and after the args line route added there when e is routed.
func (c *Config) limitAt(e entry) int {
	if e.args != nil {
		lits := make([]string, len(e.args.elems))
		for i, el := range e.args.elems {
			lits[i] = el.of(c.data)
		}
		if added := e.addPrefix + "[" + strings.Join(lits, ",") + "]"; strings.HasPrefix(string(c.data[e.addAt:]), added) {
			return e.addAt + len(added)
		}
	}
	return e.addAt
}

// unlimitEdits undo limitEdits: a line with the note goes, a raised
// number gets back the literal its note keeps.
func (c *Config) unlimitEdits(e entry) (edits []edit, change string) {
	was, ok := c.limitNoted(e.limit)
	switch {
	case !ok:
		return nil, ""
	case was == "":
		lineBreak := strings.LastIndexByte(string(c.data[:e.limit.start]), '\n')
		if lineBreak > 0 && c.data[lineBreak-1] == '\r' {
			lineBreak--
		}
		if lineBreak < 0 || strings.TrimLeft(string(c.data[lineBreak:e.limit.start]), "\r\n \t") != "" {
			return nil, "" // not on a line of its own: not as route wrote it
		}
		return []edit{{span{lineBreak, e.limit.end}, ""}}, limitKey + " removed"
	}
	note := limitNote + limitWas + was + ")"
	return []edit{{e.limit.value, was}, {span{e.limit.end - len(note), e.limit.end}, ""}}, limitKey + " = " + was
}

// limitNoted reports whether l's line carries the note limitEdits writes,
// with the literal it raised, "" for a line it added.
func (c *Config) limitNoted(l limit) (was string, ok bool) {
	if !l.given || l.value == (span{}) || l.value.of(c.data) != strconv.Itoa(LimitSeconds) {
		return "", false
	}
	rest := string(c.data[l.value.end:l.end])
	if rest == limitNote {
		return "", true
	}
	i := strings.LastIndex(rest, limitNote+limitWas)
	if i < 0 || !strings.HasSuffix(rest, ")") {
		return "", false
	}
	was = rest[i+len(limitNote+limitWas) : len(rest)-1]
	return was, numberLiteral(was)
}

// numberLiteral reports whether s is written as a decimal number, the
// only time limits route raises, so that the note can keep it whole.
func numberLiteral(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789_+-.eE", r) }) < 0
}
