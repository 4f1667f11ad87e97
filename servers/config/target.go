package config

import "strings"

// Target renders what the entry connects to, for display: the command line
// for a stdio server (quoted so it could be pasted into a shell), the URL for
// a remote one. Env and headers are left out because they often hold secrets.
func (s Server) Target() string {
	if s.Command == "" {
		return s.URL
	}
	return CommandLine(append([]string{s.Command}, s.Args...))
}

// CommandLine renders argv quoted so it could be pasted into a shell.
func CommandLine(argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = shellQuote(w)
	}
	return strings.Join(words, " ")
}

// shellQuote single-quotes w for a POSIX shell unless it is plainly safe.
func shellQuote(w string) string {
	safe := func(r rune) bool {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("@%+=:,./_-", r)
	}
	if w != "" && strings.IndexFunc(w, func(r rune) bool { return !safe(r) }) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
