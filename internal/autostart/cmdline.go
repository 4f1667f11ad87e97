package autostart

import "strings"

// commandLine joins args into a Windows command line that CreateProcess
// and CommandLineToArgvW split back into args. The program is always
// quoted, because Windows reads it up to the closing quote with no
// escapes; the arguments follow the C runtime's rules, where backslashes
// are literal unless they precede a quote.
func commandLine(args []string) string {
	words := []string{`"` + args[0] + `"`}
	for _, a := range args[1:] {
		if a != "" && !strings.ContainsAny(a, " \t\n\v\"") {
			words = append(words, a)
			continue
		}
		var b strings.Builder
		b.WriteByte('"')
		slashes := 0
		for i := 0; i < len(a); i++ {
			switch a[i] {
			case '\\':
				slashes++
			case '"':
				b.WriteString(strings.Repeat(`\`, slashes+1)) // each backslash before it doubled, and the quote escaped
				slashes = 0
			default:
				slashes = 0
			}
			b.WriteByte(a[i])
		}
		b.WriteString(strings.Repeat(`\`, slashes)) // so the closing quote is not escaped
		b.WriteByte('"')
		words = append(words, b.String())
	}
	return strings.Join(words, " ")
}
