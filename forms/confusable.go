package forms

import "sync"

// confusables maps Cyrillic, Greek, Armenian and IPA letters that look like
// Latin ones to those Latin letters, case kept. It is a small hand-made subset of
// Unicode's confusables.txt (golang.org/x/text has no skeleton function):
// enough to see "Раssword" (Cyrillic Р and а) as "Password".
var confusables = sync.OnceValue(func() map[rune]rune {
	return map[rune]rune{
		// Cyrillic
		'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P',
		'С': 'C', 'Т': 'T', 'Х': 'X', 'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'Ү': 'Y',
		'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x',
		'ѕ': 's', 'і': 'i', 'ј': 'j', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'һ': 'h', 'к': 'k',
		// Greek
		'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M',
		'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
		'α': 'a', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'υ': 'u',
		// Armenian
		'օ': 'o',
		// Latin (IPA)
		'ɑ': 'a', 'ɡ': 'g',
	}
})

// foldConfusable returns the Latin letter r looks like, or r.
func foldConfusable(r rune) rune {
	if l, ok := confusables()[r]; ok {
		return l
	}
	return r
}
