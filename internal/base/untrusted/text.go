// Package untrusted is the one door between text a stranger wrote and a
// person's eyes.
//
// Everything an MCP server or host sends (messages, titles, descriptions,
// option labels, defaults, serverInfo, tool names, error messages, links,
// stderr) is a Text. A Text keeps the bytes as they came, because those are
// what is sent back and stored. A person sees it only through one of its
// views, which neutralise what could hide text, reorder it or drive a
// terminal:
//
//   - Block, for messages and descriptions: lines kept, blank runs folded;
//   - Line, for names, labels and anything inside a sentence: one line;
//   - Quote, a Line in quotation marks and cut short, for names in sentences;
//   - Short, a Line cut short, for names in titles and menus;
//   - JSON, for JSON shown to a person or printed to a terminal.
//
// Being its own type, a Text cannot be handed to a widget or joined to a
// string by accident, and fmt prints it through Line. string(t) gives the
// raw bytes: write it only where they are sent or stored.
//
// The threat: a server that hides words (zero-width and other invisible
// characters, tag characters), reverses them so "exe.png" reads where
// "gnp.exe" is written (bidi overrides and isolates), pushes its words out
// of sight (blank lines, line separators), or writes to the terminal (ESC,
// CSI and OSC sequences that clear the screen, set the clipboard or make
// links; BEL). Each such code point becomes a visible marker, ⟨U+202E⟩, and
// each byte that is not UTF-8 becomes ⟨0xFF⟩, so a person sees that
// something was there. Tabs and line breaks are kept by Block only.
//
// A peer can also drown the desk: a name of megabytes, shown in every
// window and carried in every event. What a peer says about itself is cut
// where it is read (Cut, NameBytes, ProseBytes), visibly.
package untrusted

import (
	"strings"
	"unicode/utf8"
)

// Text is text that a server or host wrote, kept as it came.
type Text string

// Block is t safe to show as plain text on several lines.
//
// Control characters but \n and \t, bidi marks, embeddings, overrides and
// isolates, zero-width and other format characters (soft hyphen, byte order
// mark, tag characters) and every other default-ignorable code point become
// ⟨U+XXXX⟩ (four to six upper-case hex digits). Two exceptions keep
// ordinary text intact: one variation selector right after a visible
// character (❤️), and a zero-width joiner or non-joiner between two
// non-Latin letters, marks or symbols (emoji sequences, Indic and Persian
// words). Line breaks (CRLF, CR, NEL, U+2028, U+2029) become \n, blank
// lines at the start and end are dropped and every run of blank lines
// becomes one. Block is idempotent.
func (t Text) Block() string {
	return collapseBlankLines(neutralise(string(t), true))
}

// Line is t safe to show on one line, as a name or a link: Block's
// markers, and line breaks and tabs marked too.
func (t Text) Line() string {
	return neutralise(string(t), false)
}

// String is Line, so that fmt's %s and %v never print t raw.
func (t Text) String() string { return t.Line() }

// Quote shows t inside a sentence: on one line, in quotation marks and cut
// to 60 characters and an ellipsis.
func (t Text) Quote() string { return "“" + t.Short(61) + "”" }

// Short is Line cut to at most max characters, the last an ellipsis when
// anything was cut (Fold's cut), for a name in a title, a menu or a
// sentence: a name of hundreds of characters must not widen them.
func (t Text) Short(max int) string {
	line := t.Line()
	if utf8.RuneCountInString(line) <= max {
		return line
	}
	head, _ := Fold(line, max-1)
	return head + "…"
}

// Headline is the first line of Block with tabs as spaces, cut to at most
// max characters with an ellipsis (max 0: not cut), for one-line lists,
// menus and notifications. It reads at most headlineScan bytes of t.
func (t Text) Headline(max int) string {
	if len(t) > headlineScan { // a list row must not neutralise a whole message
		cut := headlineScan
		for cut > 0 && !utf8.RuneStart(t[cut]) {
			cut--
		}
		t = t[:cut]
	}
	first, _, _ := strings.Cut(t.Block(), "\n")
	first = strings.TrimSpace(strings.ReplaceAll(first, "\t", " "))
	if max <= 0 || utf8.RuneCountInString(first) <= max {
		return first
	}
	head, _ := Fold(first, max-1)
	return head + "…"
}

// headlineScan bounds what Headline reads: lists call it for every row they
// draw, and the longest headline shown (120 characters, 480 bytes at most)
// starts near the beginning, leading blank lines and all.
const headlineScan = 2 << 10
