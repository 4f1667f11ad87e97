package forms

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// splitWords normalises s and splits it into lower-case words: at spaces and
// punctuation, at camelCase humps and between letters and digits. "apiKey",
// "api_key", "API-key" and "APIKey" all give [api key]; "2FA" gives [2 fa].
//
// Normalising first undoes what would hide a word from a plain comparison:
// NFKC folds compatibility forms (full-width letters, ligatures), invisible
// format characters and overlaid marks NFKC leaves are dropped
// (Pass\u200bword, Passw\u0336ord), and letters that look Latin are folded
// to Latin (Cyrillic Раssword).
func splitWords(s string) []string {
	var runes []rune
	for _, r := range norm.NFKC.String(s) {
		if invisible(r) || overlay(r) {
			continue
		}
		runes = append(runes, foldConfusable(r))
	}
	var words []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, cur.String())
			cur.Reset()
		}
	}
	for i, r := range runes {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
			flush()
			continue
		}
		if i > 0 && cur.Len() > 0 && boundary(runes[i-1], r, runes[i+1:]) {
			flush()
		}
		cur.WriteRune(unicode.ToLower(r))
	}
	flush()
	return words
}

// boundary reports whether a word ends between prev and r, next being what
// follows r: a lower-case letter then an upper-case one (apiKey), the last
// capital of an acronym before a lower-case letter (APIKey), or a change
// between letters and digits (password2).
func boundary(prev, r rune, next []rune) bool {
	switch {
	case unicode.IsDigit(prev) != unicode.IsDigit(r) && !unicode.IsMark(r):
		return true
	case unicode.IsLower(prev) && unicode.IsUpper(r):
		return true
	case unicode.IsUpper(prev) && unicode.IsUpper(r) && len(next) > 0 && unicode.IsLower(next[0]):
		return true
	}
	return false
}

// invisible reports whether r is a format or default-ignorable character:
// it draws nothing, so a word split by it reads as one word.
func invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Variation_Selector, r)
}

// overlay reports whether r is a nonspacing mark shared by all scripts, such
// as a combining stroke, which decorates a word without changing it. A
// script's own marks (the Devanagari virama) spell the word and stay.
func overlay(r rune) bool {
	return unicode.Is(unicode.Mn, r) && unicode.Is(unicode.Inherited, r)
}
