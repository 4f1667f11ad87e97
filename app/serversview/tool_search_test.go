package serversview

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestSearchTools(t *testing.T) {
	forEachFile(t, "search", func(file string, raw []byte) {
		var data struct {
			Tools []mcp.Tool
			Cases []struct {
				Query string
				Want  []string
			}
		}
		if err := json.Unmarshal(raw, &data); err != nil {
			t.Fatal(file, err)
		}
		for _, tc := range data.Cases {
			got := []string{}
			for _, tool := range searchTools(data.Tools, tc.Query) {
				got = append(got, tool.Name)
			}
			if !slices.Equal(got, tc.Want) {
				t.Errorf("%s: %q finds %q, want %q", file, tc.Query, got, tc.Want)
			}
		}
	})
}
