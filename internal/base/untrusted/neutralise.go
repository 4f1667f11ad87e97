package untrusted

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Joiners that shape emoji sequences and the words of many scripts.
const (
	zwnj = '\u200C'
	zwj  = '\u200D'
)

// neutralise replaces what hides or reorders text by markers; with layout,
// line breaks become \n and tabs are kept.
func neutralise(s string, layout bool) string {
	var b strings.Builder
	b.Grow(len(s))
	last := rune(-1) // the last rune written, so every choice is the same on a second pass
	put := func(r rune) {
		b.WriteRune(r)
		last = r
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "⟨0x%02X⟩", s[i-1])
			last = '⟩'
		case layout && r == '\r':
			if i < len(s) && s[i] == '\n' {
				i++
			}
			put('\n')
		case layout && (r == '\n' || r == '\u0085' || r == '\u2028' || r == '\u2029'):
			put('\n')
		case layout && r == '\t':
			put(r)
		case (r == zwj || r == zwnj) && joins(last) && joinsNext(s[i:]):
			put(r)
		case unicode.Is(unicode.Variation_Selector, r) && last >= 0 && !Hidden(last) && !unicode.IsSpace(last):
			put(r)
		case Hidden(r) || unicode.In(r, unicode.Zl, unicode.Zp):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
			last = '⟩'
		default:
			put(r)
		}
	}
	return b.String()
}

// Hidden reports whether r is invisible or changes how other text reads:
// control and format characters, and the other default-ignorable code
// points. Prepended concatenation marks are format characters with a glyph
// of their own, so they stay.
func Hidden(r rune) bool {
	return unicode.Is(unicode.Cc, r) ||
		unicode.Is(unicode.Cf, r) && !unicode.Is(unicode.Prepended_Concatenation_Mark, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r)
}

// joins reports whether a joiner may stand next to r: a kept variation
// selector, or a visible non-Latin letter, mark or symbol. Between Latin
// letters a joiner changes nothing a person can see, so it only hides.
func joins(r rune) bool {
	if unicode.Is(unicode.Variation_Selector, r) {
		return true
	}
	return r > unicode.MaxASCII && !Hidden(r) && !unicode.Is(unicode.Latin, r) &&
		(unicode.IsLetter(r) || unicode.IsMark(r) || unicode.Is(unicode.So, r))
}

// joinsNext reports whether the first rune of rest may follow a joiner. A
// variation selector is not enough here: whether it stays depends on the
// joiner before it.
func joinsNext(rest string) bool {
	r, size := utf8.DecodeRuneInString(rest)
	return size > 1 && !unicode.Is(unicode.Variation_Selector, r) && joins(r)
}

// collapseBlankLines drops blank lines at the start and the end of s and
// turns every run of blank lines within it into one empty line.
func collapseBlankLines(s string) string {
	lines := strings.Split(s, "\n")
	kept := make([]string, 0, len(lines))
	gap := false
	for _, line := range lines {
		if blank(line) {
			gap = len(kept) > 0
			continue
		}
		if gap {
			kept = append(kept, "")
			gap = false
		}
		kept = append(kept, line)
	}
	return strings.Join(kept, "\n")
}

// blank reports whether line shows nothing: white space only, or the
// braille blank that fonts draw as empty.
func blank(line string) bool {
	return strings.TrimFunc(line, func(r rune) bool { return unicode.IsSpace(r) || r == '\u2800' }) == ""
}
