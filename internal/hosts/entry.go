package hosts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/textpos"
)

// entry is where one server's command line is in its config's bytes: all
// that routing edits. The parser of each format fills it in.
type entry struct {
	// cmd is the command's string literal, and key its key's; in a
	// remote entry, the url's, which routing turns into the command.
	cmd, key span
	args     *array // nil when the entry has no args
	// argv says the command is args' first element, as opencode writes
	// "command": ["prog", "arg"...].
	argv bool
	// A missing args member is added at addAt as addPrefix, then the array:
	// the format's separator, indentation and key, so that it reads as if
	// the host had written it.
	addAt     int
	addPrefix string
	// kind is the "type" member's value literal; empty without one.
	kind span
	// maps are the key literals of the env member, or in a remote entry
	// of the headers member, which routing renames to env. TOML may name
	// a table in more than one place.
	maps []span
	// names are the key literals of the members of maps: a remote entry's
	// header names, which routing prefixes with HeaderEnvPrefix, or a
	// routed entry's env names, which unrouting takes it off again.
	names []span
	// refuse says why a remote entry cannot be routed as written.
	refuse string
	// limit is the entry's time limit on a tool call, where its host has
	// one per server.
	limit limit
}

// span is the bytes [start, end) of a value.
type span struct{ start, end int }

// array is an array value: its elements, and the offset just past its "["
// (in a YAML block sequence, its first element's).
type array struct {
	open  int
	elems []span
	// block is what goes before each new element of a YAML block
	// sequence: the line break, indentation and "- " of its first.
	block string
}

// argsFrom is the index of e's first argument among e.args.elems.
func (e entry) argsFrom() int {
	if e.argv {
		return 1
	}
	return 0
}

func (s span) of(data []byte) string { return string(data[s.start:s.end]) }

// quote writes s as a string literal that JSON and TOML read alike: JSON's
// escapes are a subset of TOML's basic-string escapes.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	// DEL is a control character to TOML, not to JSON.
	return strings.ReplaceAll(strings.TrimSuffix(b.String(), "\n"), "\x7f", `\u007f`)
}

// quoted is each of ss quoted.
func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = quote(s)
	}
	return out
}

// elementSeparator is what goes between two new elements of a: the comma
// and the whitespace its elements are already separated by, so that a
// one-line array stays on one line and a tall one stays tall.
func elementSeparator(data []byte, a *array) string {
	if a.block != "" {
		return a.block
	}
	switch len(a.elems) {
	case 0:
		return ", "
	case 1:
		if ws := leadingSpace(data[a.open:a.elems[0].start]); strings.Contains(ws, "\n") {
			return "," + ws
		}
		return ", "
	}
	return "," + trailingSpace(data[a.elems[0].end:a.elems[1].start])
}

// lineIndent is the line break and indentation before the key whose
// leading text is before: where a new key goes to line up with it, or a
// space when the keys share a line.
func lineIndent(before []byte) string {
	i := bytes.LastIndexByte(before, '\n')
	if i < 0 {
		return " "
	}
	if i > 0 && before[i-1] == '\r' {
		i--
	}
	return leadingSpace(before[i:])
}

// leadingSpace is the whitespace b starts with.
func leadingSpace(b []byte) string {
	return string(b[:len(b)-len(bytes.TrimLeft(b, " \t\r\n"))])
}

// trailingSpace is the whitespace b ends with.
func trailingSpace(b []byte) string {
	return string(b[len(bytes.TrimRight(b, " \t\r\n")):])
}

// lineCol is where offset off of data is, as a person finds it in an editor.
func lineCol(data []byte, off int) string {
	line, col := textpos.LineColumn(data, off)
	return fmt.Sprintf("line %d, column %d", line, col)
}
