package serversview

import (
	"strings"

	"golang.org/x/text/cases"

	"github.com/elicitdesk/elicitdesk/servers"
)

// searchTools is the tools whose name, title or description hold every
// word of query, in any order; an empty query keeps them all. Case is
// folded, so "GitHub" finds "github".
func searchTools(tools []servers.Tool, query string) []servers.Tool {
	fold := cases.Fold()
	words := strings.Fields(fold.String(query))
	if len(words) == 0 {
		return tools
	}
	var out []servers.Tool
	for _, t := range tools {
		text := fold.String(strings.Join([]string{t.Name, string(t.Title), string(t.Description)}, "\n"))
		if allIn(words, text) {
			out = append(out, t)
		}
	}
	return out
}

// allIn reports whether every word occurs in text.
func allIn(words []string, text string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}
