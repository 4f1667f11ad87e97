package trust

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

// IdentityWarnings says when who is asking may not be who they seem: when
// the server's reported serverInfo (name or title) agrees with neither the
// configured name nor what its command line runs (the program, the
// package or script it starts: "@modelcontextprotocol/server-everything"
// is "everything"), and when the message speaks for another server of
// others, naming it (by configured name, or by a reported title or name
// that agrees with it; as whole words) or claiming to come from it ("this is X", "from X", "on
// behalf of X", "X needs"). Names compare loosely: case, width, punctuation,
// invisible characters and the words "MCP" and "server" do not count, and a
// name of three letters or more agrees with a longer one that contains it,
// so "github" agrees with "GitHub MCP Server" and "demo" with
// "elicitdesk-demo". The result is plain sentences; none when all agree.
func IdentityWarnings(who servers.Identity, message untrusted.Text, others []servers.Identity) []string {
	var warnings []string
	own := [][]string{words(who.Name)} // names the sender may use for itself
	if w, ok := reportedMismatch(who); ok {
		warnings = append(warnings, w)
	}
	if reported := reportedWords(who.Reported); agrees(who.Name, reported) {
		own = append(own, reported...)
	}
	msg := words(string(message))
	for _, o := range others {
		if o.Name == who.Name {
			continue
		}
		found, claimed, as := false, false, ""
		for _, name := range []string{o.Name, string(o.Reported.Title), string(o.Reported.Name)} {
			ws := words(name)
			if len(ws) == 0 || slices.ContainsFunc(own, func(own []string) bool { return sameName(ws, own) }) {
				continue // naming a server that shares the sender's name is no claim
			}
			f, c := mentions(msg, ws)
			if !f {
				f, c = mentions(msg, core(ws))
			}
			if name != o.Name && !ownName(o, name) && !c {
				// What a server reports of itself, but for a name the person
				// gave it, counts only as a claim ("this is GitHub"): else a
				// server titled "Please" would mark every other's messages.
				continue
			}
			if f && !found || c && !claimed {
				found, claimed, as = true, c, name
			}
		}
		if !found {
			continue
		}
		named := untrusted.Text(as).Quote() + ", another of your servers,"
		if as != o.Name {
			named = untrusted.Text(as).Quote() + " (your server " + untrusted.Text(o.Name).Quote() + "),"
		}
		verb := "names"
		if claimed {
			verb = "claims to come from"
		}
		warnings = append(warnings, fmt.Sprintf("The message %s %s but %s sent it.", verb, named, untrusted.Text(who.Name).Quote()))
	}
	return warnings
}

// reportedMismatch is the warning for a server whose reported name and
// title both differ from the name it was configured under and from what
// its command line runs: a server that reports the package it is run
// from is the one the person chose, whatever they called it. Only the
// configured name makes the reported names the sender's own in
// IdentityWarnings' claims, so that a package named for another server
// cannot speak for it.
func reportedMismatch(who servers.Identity) (string, bool) {
	r := who.Reported
	if who.Name == "" || r.Name == "" && r.Title == "" {
		return "", false
	}
	reported := reportedWords(r)
	if slices.ContainsFunc(append([]string{who.Name}, runs(who.Target)...), func(name string) bool { return agrees(name, reported) }) {
		return "", false
	}
	calls := r.Title.Quote()
	switch {
	case r.Title == "":
		calls = r.Name.Quote()
	case r.Name != "" && r.Name != r.Title:
		calls += " (" + r.Name.Quote() + ")"
	}
	return fmt.Sprintf("The server shown as %s calls itself %s: make sure it is the one you meant.", untrusted.Text(who.Name).Quote(), calls), true
}

// ownName reports whether name, one of o's reported names, agrees with
// the name the person gave o or with what its command line runs.
func ownName(o servers.Identity, name string) bool {
	reported := [][]string{words(name)}
	return slices.ContainsFunc(append([]string{o.Name}, runs(o.Target)...), func(n string) bool { return agrees(n, reported) })
}

// reportedWords are the words of a server's reported name and title.
func reportedWords(r servers.ServerInfo) [][]string {
	return [][]string{words(string(r.Name)), words(string(r.Title))}
}

// agrees reports whether name agrees with any of the reported names.
func agrees(name string, reported [][]string) bool {
	ws := words(name)
	return slices.ContainsFunc(reported, func(r []string) bool { return sameName(ws, r) })
}

// words splits s into the words a name is compared by: runs of letters,
// marks and digits after compatibility normalisation and case folding, with
// invisible characters dropped so they cannot split or disguise a word.
func words(s string) []string {
	s = strings.Map(func(r rune) rune {
		if untrusted.Hidden(r) {
			return -1
		}
		return r
	}, s)
	s = cases.Fold().String(norm.NFKC.String(s))
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsNumber(r)
	})
}

// core drops the words that only say it is an MCP server, unless nothing
// else is left.
func core(ws []string) []string {
	kept := slices.DeleteFunc(slices.Clone(ws), filler)
	if len(kept) == 0 {
		return ws
	}
	return kept
}

// filler reports whether w only says that a name is an MCP server's.
func filler(w string) bool {
	return w == "mcp" || w == "server" || w == "servers"
}

// sameName reports whether two names agree loosely: their cores are equal
// once spaces go, or the longer contains the shorter of three or more runes.
func sameName(a, b []string) bool {
	x, y := strings.Join(core(a), ""), strings.Join(core(b), "")
	if len(x) > len(y) {
		x, y = y, x
	}
	return x != "" && (x == y || utf8.RuneCountInString(x) >= 3 && strings.Contains(y, x))
}

// mentions reports whether msg holds the words of name in a row, and
// whether it claims to speak for name at any such place.
func mentions(msg, name []string) (found, claimed bool) {
	for i := 0; i+len(name) <= len(msg); i++ {
		if slices.Equal(msg[i:i+len(name)], name) {
			found = true
			if claimsBefore(msg[:i]) || claimsAfter(msg[i+len(name):]) {
				return true, true
			}
		}
	}
	return found, false
}

// claimsBefore reports whether the words before a name introduce it as the
// speaker: "this is (the) X", "from X", "on behalf of X".
func claimsBefore(before []string) bool {
	if n := len(before); n > 0 && before[n-1] == "the" {
		before = before[:n-1]
	}
	phrases := [][]string{
		{"this", "is"}, {"here", "is"}, {"it", "is"}, {"i", "am"}, {"i", "m"}, {"we", "are"},
		{"from"}, {"on", "behalf", "of"}, {"sent", "by"}, {"signed"},
	}
	return slices.ContainsFunc(phrases, func(p []string) bool {
		return len(before) >= len(p) && slices.Equal(before[len(before)-len(p):], p)
	})
}

// claimsAfter reports whether the words after a name make it the one that
// asks: "X needs", "X (MCP server) requires", "X is asking".
func claimsAfter(after []string) bool {
	for len(after) > 0 && filler(after[0]) {
		after = after[1:]
	}
	phrases := [][]string{
		{"needs"}, {"need"}, {"asks"}, {"requires"}, {"wants"}, {"requests"}, {"says"},
		{"is", "asking"}, {"is", "requesting"}, {"would", "like"},
	}
	return slices.ContainsFunc(phrases, func(p []string) bool {
		return len(after) >= len(p) && slices.Equal(after[:len(p)], p)
	})
}
