package serversview

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// Each testdata/results/NAME.json, a tool result as a server sends it,
// reads as NAME.txt.
func TestResultText(t *testing.T) {
	forEachFile(t, "results", func(file string, raw []byte) {
		msg := json.RawMessage(raw)
		res, err := mcp.ParseCallToolResult(&msg)
		if err != nil {
			t.Fatal(file, err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(file, ".json") + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		if got := string(resultText(res)) + "\n"; got != string(want) {
			t.Errorf("%s:\n%s\nwant:\n%s", file, got, want)
		}
	})
}

// A result made in process has structuredContent as a Go value.
func TestResultTextStructuredValue(t *testing.T) {
	res := mcp.NewToolResultStructured(map[string]any{"ok": true}, "done")
	if got, want := string(resultText(res)), "done\n\nStructured content:\n{\n  \"ok\": true\n}"; got != want {
		t.Errorf("resultText = %q, want %q", got, want)
	}
}
