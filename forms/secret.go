package forms

import (
	"strings"
	"unicode"
)

// secretWords are words that, in a field's name or title, mean it asks for a
// credential; secretPairs are two-word phrases that do.
var (
	secretWords = []string{"password", "passwd", "passphrase", "passcode", "token", "secret", "cvv", "cvc", "apikey", "pin"}
	secretPairs = [][2]string{{"api", "key"}, {"access", "key"}, {"private", "key"}, {"card", "number"}, {"credit", "card"}, {"security", "code"}}
)

// Secret reports whether the field's name or title suggests a secret such as
// a password, token, API key or card number. Servers must not ask for these
// in a form, so the UI masks the input and warns.
func (f *Field) Secret() bool {
	return looksSecret(f.Name) || looksSecret(string(f.Title))
}

func looksSecret(s string) bool {
	words := splitWords(s)
	for i, w := range words {
		for _, sw := range secretWords {
			if w == sw {
				return true
			}
		}
		if i+1 < len(words) {
			for _, p := range secretPairs {
				if w == p[0] && words[i+1] == p[1] {
					return true
				}
			}
		}
	}
	return false
}

// splitWords lowercases s and splits it at spaces, punctuation and camelCase
// humps: "apiKey", "api_key" and "API key" all give [api key].
func splitWords(s string) []string {
	var words []string
	var cur strings.Builder
	prevLower := false
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, cur.String())
			cur.Reset()
		}
	}
	for _, r := range s {
		switch {
		case unicode.IsUpper(r):
			if prevLower {
				flush()
			}
			cur.WriteRune(unicode.ToLower(r))
			prevLower = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur.WriteRune(r)
			prevLower = true
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return words
}
