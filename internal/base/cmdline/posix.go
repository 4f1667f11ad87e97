package cmdline

import "strings"

// JoinPOSIX renders argv for a POSIX shell: each word single-quoted
// unless it is plainly safe.
func JoinPOSIX(argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = posixQuote(w)
	}
	return strings.Join(words, " ")
}

// posixQuote single-quotes w unless it is plainly safe.
func posixQuote(w string) string {
	safe := func(r rune) bool {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("@%+=:,./_-", r)
	}
	if w != "" && strings.IndexFunc(w, func(r rune) bool { return !safe(r) }) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// SplitPOSIX splits line into words the way a POSIX shell does: blanks
// separate words, '…' keeps everything literally, "…" keeps everything
// but \" \\ \$ \`, and a backslash outside quotes keeps the next
// character.
func SplitPOSIX(line string) ([]string, error) {
	var (
		words []string
		word  strings.Builder
		inAny bool // a word has begun, perhaps an empty quoted one
	)
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inAny {
				words = append(words, word.String())
				word.Reset()
				inAny = false
			}
		case r == '\'':
			end := indexRune(rs, i+1, '\'')
			if end < 0 {
				return nil, errSingle
			}
			word.WriteString(string(rs[i+1 : end]))
			i, inAny = end, true
		case r == '"':
			end, err := readDoubleQuoted(rs, i+1, &word)
			if err != nil {
				return nil, err
			}
			i, inAny = end, true
		case r == '\\':
			if i+1 == len(rs) {
				return nil, errBackslash
			}
			i++
			if rs[i] != '\n' { // backslash-newline continues the line
				word.WriteRune(rs[i])
				inAny = true
			}
		default:
			word.WriteRune(r)
			inAny = true
		}
	}
	if inAny {
		words = append(words, word.String())
	}
	return words, nil
}

// readDoubleQuoted copies the inside of a "…" starting at rs[from] into word
// and returns the index of the closing quote.
func readDoubleQuoted(rs []rune, from int, word *strings.Builder) (int, error) {
	for i := from; i < len(rs); i++ {
		switch r := rs[i]; {
		case r == '"':
			return i, nil
		case r == '\\' && i+1 < len(rs) && strings.ContainsRune("\"\\$`\n", rs[i+1]):
			i++
			if rs[i] != '\n' {
				word.WriteRune(rs[i])
			}
		default:
			word.WriteRune(r)
		}
	}
	return 0, errDouble
}

// indexRune is the index of the first r in rs at or after from, or -1.
func indexRune(rs []rune, from int, r rune) int {
	for i := from; i < len(rs); i++ {
		if rs[i] == r {
			return i
		}
	}
	return -1
}
