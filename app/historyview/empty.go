package historyview

import "github.com/elicitdesk/elicitdesk/internal/base/untrusted"

// emptyState is what the list area says in its middle when it lists
// nothing: the zero value when it lists something.
type emptyState struct {
	text  string
	clear bool // offer to clear the search and filters
}

// emptyStateOf is the list area's empty state for n entries found with
// the search text and the filters as set; none says the history holds
// nothing at all (just cleared, say), whatever the search.
func emptyStateOf(n int, none bool, text, server, outcome string) emptyState {
	filtered := server != allServers || outcome != allOutcomes
	switch {
	case n > 0:
		return emptyState{}
	case none:
		return emptyState{text: "No requests yet. They appear here once a server asks.", clear: text != "" || filtered}
	case text == "" && !filtered:
		return emptyState{text: "No requests yet. They appear here once a server asks."}
	case text == "":
		return emptyState{text: "Nothing matches these filters.", clear: true}
	case filtered:
		return emptyState{text: "Nothing matches “" + searchShown(text) + "” with these filters.", clear: true}
	}
	return emptyState{text: "Nothing matches “" + searchShown(text) + "”.", clear: true}
}

// searchShown is the search text as the empty state quotes it: one line,
// the start of a long one.
func searchShown(text string) string { return untrusted.Text(text).Headline(40) }
