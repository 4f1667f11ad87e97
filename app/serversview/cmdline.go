package serversview

import (
	"errors"
	"strings"
)

// splitCommandLine splits a stdio server's command line into words the way
// a POSIX shell does, so a line pasted from a server's README works and so
// does what config.Server.Identity renders: blanks separate words,
// '…' keeps everything literally, "…" keeps everything but \" \\ \$ \`, and
// a backslash outside quotes keeps the next character. Nothing is expanded:
// no variables, no ~, no globs, because no shell runs the server.
func splitCommandLine(line string) ([]string, error) {
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
				return nil, errors.New("a ' quote is not closed")
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
				return nil, errors.New("the line ends with a lone \\")
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
	return 0, errors.New(`a " quote is not closed`)
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
