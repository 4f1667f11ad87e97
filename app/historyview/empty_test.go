package historyview

import (
	"strings"
	"testing"
)

func TestEmptyStateOf(t *testing.T) {
	long := strings.Repeat("deploy ", 20)
	tests := []struct {
		name                  string
		n                     int
		none                  bool
		text, server, outcome string
		want                  emptyState
	}{
		{"entries", 3, false, "x", "files", "stale", emptyState{}},
		{"an empty history", 0, true, "", allServers, allOutcomes, emptyState{text: "No requests yet. They appear here once a server asks."}},
		{"an empty history searched", 0, true, "continue", allServers, allOutcomes, emptyState{text: "No requests yet. They appear here once a server asks.", clear: true}},
		{"a search", 0, false, "foo", allServers, allOutcomes, emptyState{text: "Nothing matches “foo”.", clear: true}},
		{"filters", 0, false, "", "files", allOutcomes, emptyState{text: "Nothing matches these filters.", clear: true}},
		{"a search and a filter", 0, false, "foo", allServers, "stale", emptyState{text: "Nothing matches “foo” with these filters.", clear: true}},
		{"hidden characters", 0, false, "a\u202eb\nc", allServers, allOutcomes, emptyState{text: "Nothing matches “a⟨U+202E⟩b”.", clear: true}},
		{"a long search", 0, false, long, allServers, allOutcomes, emptyState{text: "Nothing matches “" + searchShown(long) + "”.", clear: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := emptyStateOf(tt.n, tt.none, tt.text, tt.server, tt.outcome); got != tt.want {
				t.Errorf("emptyStateOf = %+v, want %+v", got, tt.want)
			}
		})
	}
	if len([]rune(searchShown(long))) > 41 {
		t.Errorf("a long search is quoted whole: %q", searchShown(long))
	}
}

func TestColumnWidths(t *testing.T) {
	// One unit a byte, so the widths are easy to read.
	measure := func(s string) float32 { return float32(len(s)) }
	long := strings.Repeat("s", 500)
	tests := []struct {
		name string
		rows []row
		want columns
	}{
		{"headings only", nil, columns{8, 6, 7}},
		{"wider texts", []row{{when: "2026-11-23 04:20", server: "demo", outcome: "accepted"}, {when: "x", server: "a-longer-name", outcome: "stale"}}, columns{16, 13, 8}},
		{"a server name too long", []row{{server: long}}, columns{8, maxServerWidth, 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := columnWidths(tt.rows, measure); got != tt.want {
				t.Errorf("columnWidths = %v, want %v", got, tt.want)
			}
		})
	}
}
