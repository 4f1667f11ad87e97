package serversview

import (
	"strings"

	"github.com/elicitdesk/elicitdesk/forms"
)

// The Add/Edit dialog masks the values of header and environment lines
// that look like credentials, so that a token does not show to whoever
// looks at the screen; an eye button per value reveals it. The masked text
// is what the entry holds: the values behind the masks are kept aside, by
// the line's name, and put back before the text is read.

// mask stands for a hidden value in the text.
const mask = "••••••••"

// maskRune is what a mask is made of: a value holding it and more was a
// mask the person edited, which cannot be put back.
const maskRune = '•'

// looksSecret reports whether a line of name and value seems to carry a
// credential: a name such as Authorization, X-Api-Key or GITHUB_TOKEN
// (judged as forms judges a field's name), or a value that starts like
// an Authorization header's.
func looksSecret(name, value string) bool {
	if (&forms.Field{Name: name}).Secret() {
		return true
	}
	scheme, _, _ := strings.Cut(strings.TrimSpace(value), " ")
	switch strings.ToLower(scheme) {
	case "bearer", "basic", "token", "digest":
		return true
	}
	return false
}

// splitLine cuts a line at its first sep into the name, trimmed, and the
// rest as written.
func splitLine(line string, sep byte) (name, rest string, ok bool) {
	name, rest, ok = strings.Cut(line, string(sep))
	return strings.TrimSpace(name), rest, ok
}

// mapLines rewrites the rest of each line that has a sep with f.
func mapLines(text string, sep byte, f func(name, rest string) string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if name, rest, ok := splitLine(line, sep); ok && name != "" {
			lines[i] = line[:len(line)-len(rest)] + f(name, rest)
		}
	}
	return strings.Join(lines, "\n")
}

// masked reports whether rest is a mask.
func masked(rest string) bool { return strings.TrimSpace(rest) == mask }

// hideValues masks the values of the lines for which hide reports true,
// keeping them in hidden by name.
func hideValues(text string, sep byte, hidden map[string]string, hide func(name, rest string) bool) string {
	return mapLines(text, sep, func(name, rest string) string {
		if masked(rest) || !hide(name, rest) {
			return rest
		}
		hidden[name] = rest
		lead := rest[:len(rest)-len(strings.TrimLeft(rest, " \t"))]
		return lead + mask
	})
}

// showValues puts back the hidden values of the masked lines for which
// show reports true.
func showValues(text string, sep byte, hidden map[string]string, show func(name string) bool) string {
	return mapLines(text, sep, func(name, rest string) string {
		if v, ok := hidden[name]; ok && masked(rest) && show(name) {
			return v
		}
		return rest
	})
}

// secretLine is a line whose value is or could be masked.
type secretLine struct {
	Name   string
	Masked bool
}

// secretLines lists the lines of text that are masked or look secret, in
// order, each name once.
func secretLines(text string, sep byte, hidden map[string]string) []secretLine {
	var out []secretLine
	seen := map[string]bool{}
	mapLines(text, sep, func(name, rest string) string {
		_, kept := hidden[name]
		isMasked := masked(rest) && kept
		if !seen[name] && (isMasked || looksSecret(name, rest)) {
			seen[name] = true
			out = append(out, secretLine{name, isMasked})
		}
		return rest
	})
	return out
}
