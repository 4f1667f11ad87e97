package untrusted

import (
	"unicode/utf8"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Bounds of what a peer says about itself, for Cut. They count bytes of
// JSON, as encoding/json writes the text, because the text travels as
// JSON (in the windows' events, in History): a rune JSON escapes (U+2028,
// a control character, <) costs its escape, up to six bytes for one, so
// a bounded text stays bounded however it is encoded.
const (
	// NameBytes bounds a name, title or version (serverInfo, clientInfo,
	// a tool's name and title) and a cancel's reason: a window shows one
	// line of it, and 512
	// bytes is some 170 to 500 characters, more than any line holds.
	NameBytes = 512
	// ProseBytes bounds what is read as paragraphs (a server's
	// instructions, a tool's description, an error): 32 KiB is pages of
	// text, more than anyone reads in a window, and a hundred such texts
	// in one event are still below half the endpoint's 8 MiB.
	ProseBytes = 32 << 10
)

// Cut is t within max bytes of JSON (see NameBytes): t itself when it
// fits, else its head followed by a marker that says how long t was, such
// as "…⟨cut: 7,340,032 bytes in all⟩". The marker is always the last
// thing, so what a peer wrote before it cannot reorder or join it once
// shown through a view: bidi controls and joiners in the head are marked
// by the views, and the head does not end between a character and the
// marks or joiners that follow it (unless it is all one such run, as
// Zalgo text is). A peer can write the words of a marker
// too, but only to make its own text look cut. The head ends at a rune
// boundary, so valid UTF-8 stays valid; Cut is idempotent.
//
// When max cannot hold even the marker, Cut is "…" or, below three
// bytes, "".
func (t Text) Cut(max int) Text {
	s := string(t)
	if jsonPrefix(s, max) == len(s) {
		return t
	}
	mark := cutMark(len(s)) // its runes are written as they are: len is its JSON
	switch {
	case len(mark) <= max:
		return Text(s[:clusterStart(s, jsonPrefix(s, max-len(mark)), 0)] + mark)
	case len(ellipsis) <= max:
		return ellipsis
	}
	return ""
}

// ellipsis starts the marker; alone, it marks a cut where the marker does
// not fit.
const ellipsis = "…"

// cutMark is the marker after the head of a text of n bytes.
func cutMark(n int) string {
	return message.NewPrinter(language.English).Sprintf(ellipsis+"⟨cut: %d bytes in all⟩", n)
}

// jsonPrefix is the length of the longest head of s that encoding/json
// writes in at most max bytes, quotes aside.
func jsonPrefix(s string, max int) int {
	used := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if used += jsonBytes(r, size); used > max {
			return i
		}
		i += size
	}
	return len(s)
}

// jsonBytes is what encoding/json writes for a rune of size bytes: a
// \uXXXX escape for control characters, U+2028, U+2029 and the HTML
// characters, \ufffd for a byte that is not UTF-8, two bytes for the
// characters escaped by a backslash, else the rune itself.
func jsonBytes(r rune, size int) int {
	switch {
	case r == utf8.RuneError && size == 1:
		return len(`\ufffd`)
	case r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '\t':
		return 2
	case r < 0x20 || r == '<' || r == '>' || r == '&' || r == '\u2028' || r == '\u2029':
		return len(`\u00XX`)
	}
	return size
}
