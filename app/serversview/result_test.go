package serversview

import (
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

// Each testdata/results/NAME.json, a tool result as a server sends it,
// reads as NAME.txt, and the call window shows it so under a heading that
// says whether the tool reported an error.
func TestResultText(t *testing.T) {
	h := newHarness(t, []byte(`{"mcpServers":{}}`))
	tool, err := servers.ParseTool([]byte(`{"name":"t","inputSchema":{"type":"object"}}`))
	if err != nil {
		t.Fatal(err)
	}
	h.w.openCall("s", tool)
	c := h.w.calls["s\x00t"]
	forEachFile(t, "results", func(file string, raw []byte) {
		res, err := servers.ParseToolResult(raw)
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

		c.finished(res, nil, servers.Identity{Name: "s"})
		heading, imp := "Result", widget.SuccessImportance
		if res.IsError {
			heading, imp = "The tool reported an error.", widget.DangerImportance
		}
		if c.heading.Text != heading || c.heading.Importance != imp {
			t.Errorf("%s: heading %q (importance %v), want %q (%v)", file, c.heading.Text, c.heading.Importance, heading, imp)
		}
		if shown := untrusted.Text(strings.TrimSuffix(string(want), "\n")).Block(); c.output.Text != shown {
			t.Errorf("%s: the window shows\n%s\nwant\n%s", file, c.output.Text, shown)
		}
	})
}
