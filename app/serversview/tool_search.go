package serversview

import (
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"golang.org/x/text/cases"
)

// searchTools is the tools whose name, title or description hold every
// word of query, in any order; an empty query keeps them all. Case is
// folded, so "GitHub" finds "github".
func searchTools(tools []mcp.Tool, query string) []mcp.Tool {
	fold := cases.Fold()
	words := strings.Fields(fold.String(query))
	if len(words) == 0 {
		return tools
	}
	var out []mcp.Tool
	for _, t := range tools {
		text := fold.String(strings.Join([]string{t.Name, t.Title, t.Annotations.Title, t.Description}, "\n"))
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
