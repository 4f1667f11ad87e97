package cmdline

import "strings"

// JoinWindows renders argv as the command line CreateProcess is given
// and CommandLineToArgvW splits back into argv, which cmd.exe and
// PowerShell pass on as typed: the program in quotes when it holds a
// blank, as Windows reads it up to the closing quote with no escapes (a
// file name holds no quote), each argument as WindowsArg quotes it.
func JoinWindows(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	words := make([]string, len(argv))
	words[0] = argv[0]
	if argv[0] == "" || strings.ContainsAny(argv[0], " \t") {
		words[0] = `"` + argv[0] + `"`
	}
	for i, a := range argv[1:] {
		words[i+1] = WindowsArg(a)
	}
	return strings.Join(words, " ")
}

// WindowsArg quotes one argument by the C runtime's rules, as Go's
// syscall.EscapeArg does: in quotes when it is empty or holds a blank;
// backslashes are literal unless they come before a quote, where each is
// doubled and the quote escaped.
func WindowsArg(s string) string {
	if s == "" {
		return `""`
	}
	blank := strings.ContainsAny(s, " \t")
	if !blank && !strings.ContainsAny(s, `"\`) {
		return s
	}
	var b strings.Builder
	if blank {
		b.WriteByte('"')
	}
	slashes := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			slashes++
		case '"':
			b.WriteString(strings.Repeat(`\`, slashes+1)) // each backslash before it doubled, and the quote escaped
			slashes = 0
		default:
			slashes = 0
		}
		b.WriteByte(s[i])
	}
	if blank {
		b.WriteString(strings.Repeat(`\`, slashes)) // so the closing quote is not escaped
		b.WriteByte('"')
	}
	return b.String()
}

// SplitWindows splits line as CommandLineToArgvW does, which is how a
// program started with it on Windows reads its arguments: the program up
// to the first blank (space or tab), or between quotes with no escapes;
// then words between blanks, where "…" keeps blanks, n backslashes before
// a quote are n/2 backslashes and, when n is odd, a literal quote, and a
// third quote in a row is a literal one. Windows reads a quote left open
// to the end of the line; so does SplitWindows, which never fails. Unlike
// Windows, it ignores blanks before the program, which a person may type.
func SplitWindows(line string) ([]string, error) {
	line = strings.TrimLeft(line, " \t")
	if line == "" {
		return nil, nil
	}
	var program string
	if line[0] == '"' {
		end := strings.IndexByte(line[1:], '"')
		if end < 0 {
			end = len(line) - 1
		}
		program, line = line[1:end+1], line[min(end+2, len(line)):]
	} else {
		end := strings.IndexAny(line, " \t")
		if end < 0 {
			end = len(line)
		}
		program, line = line[:end], line[end:]
	}
	words := []string{program}
	var (
		word   strings.Builder
		inAny  bool // a word has begun, perhaps an empty quoted one
		quotes int  // quotes counted in a row: odd while in quotes
	)
	// run counts the quotes that follow line[i], as Windows does.
	run := func(i int) int {
		for ; i+1 < len(line) && line[i+1] == '"'; i++ {
			if quotes++; quotes == 3 {
				word.WriteByte('"')
				quotes = 0
			}
		}
		if quotes == 2 {
			quotes = 0
		}
		return i
	}
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case (c == ' ' || c == '\t') && quotes == 0:
			if inAny {
				words = append(words, word.String())
				word.Reset()
				inAny = false
			}
		case c == '\\':
			n := 0
			for i+n < len(line) && line[i+n] == '\\' {
				n++
			}
			i += n - 1
			inAny = true
			if i+1 == len(line) || line[i+1] != '"' {
				word.WriteString(strings.Repeat(`\`, n))
				continue
			}
			i++ // the quote
			word.WriteString(strings.Repeat(`\`, n/2))
			if n%2 == 1 {
				word.WriteByte('"')
			} else {
				quotes++
			}
			i = run(i)
		case c == '"':
			quotes++
			inAny = true
			i = run(i)
		default:
			word.WriteByte(c)
			inAny = true
		}
	}
	if inAny {
		words = append(words, word.String())
	}
	return words, nil
}
