package untrusted

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fold cuts s to at most max runes for the folded view, reporting whether
// anything was cut so the UI can offer "Show more". It cuts at a line break
// in the last quarter of the limit, or else at a space there; only when
// there is neither does it cut within a word, and then never between a
// character and the marks or joiners that belong to it. White space at the
// end of the head goes.
func Fold(s string, max int) (head string, folded bool) {
	if utf8.RuneCountInString(s) <= max {
		return s, false
	}
	if max <= 0 {
		return "", true
	}
	near := runeOffset(s, max-max/4) // boundaries from here on count as near
	end := runeOffset(s, max)
	_, size := utf8.DecodeRuneInString(s[end:])
	window := s[:end+size] // a break right after the limit is as good as one before
	cut := strings.LastIndexByte(window, '\n')
	if cut < near {
		cut = strings.LastIndexFunc(window, unicode.IsSpace)
	}
	if cut < near {
		cut = clusterStart(s, end, near)
	}
	return strings.TrimRightFunc(s[:cut], unicode.IsSpace), true
}

// runeOffset returns the byte offset of the n-th rune of s.
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// clusterStart moves a cut at byte end back, but not before floor, until it
// no longer separates a character from the marks, variation selectors or
// joiners that follow it.
func clusterStart(s string, end, floor int) int {
	for cut := end; cut > floor; {
		next, _ := utf8.DecodeRuneInString(s[cut:])
		prev, size := utf8.DecodeLastRuneInString(s[:cut])
		if !unicode.IsMark(next) && next != zwj && prev != zwj {
			return cut
		}
		cut -= size
	}
	return end
}
