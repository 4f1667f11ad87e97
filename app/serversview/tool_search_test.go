package serversview

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/internal/testkit/demotest"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

func TestSearchTools(t *testing.T) {
	forEachFile(t, "search", func(file string, raw []byte) {
		var data struct {
			Tools []json.RawMessage
			Cases []struct {
				Query string
				Want  []string
			}
		}
		if err := json.Unmarshal(raw, &data); err != nil {
			t.Fatal(file, err)
		}
		var tools []servers.Tool
		for _, raw := range data.Tools {
			tool, err := servers.ParseTool(raw)
			if err != nil {
				t.Fatal(file, err)
			}
			tools = append(tools, tool)
		}
		for _, tc := range data.Cases {
			got := []string{}
			for _, tool := range searchTools(tools, tc.Query) {
				got = append(got, tool.Name)
			}
			if !slices.Equal(got, tc.Want) {
				t.Errorf("%s: %q finds %q, want %q", file, tc.Query, got, tc.Want)
			}
		}
	})
}

// The Tools tab's search narrows the list and says how many match.
func TestToolsPaneSearch(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	h.waitState("demo", servers.StateReady)
	h.waitFor("the tools", func() bool { return h.toolRow(demo.ToolNeedsLink) != nil })
	p := h.w.tools
	all := len(p.tools)
	test.Type(p.search, "LINK")
	var shown []string
	for _, o := range p.box.Objects {
		if r, ok := o.(*toolRow); ok {
			shown = append(shown, r.tool.Name)
		}
	}
	want := searchTools(p.tools, "link")
	if len(shown) != len(want) || len(want) == 0 || len(want) == all {
		t.Fatalf("shown %q of %d tools, want the %d that mention links", shown, all, len(want))
	}
	if got := p.status.Text; got != toolCount("demo", len(want), all) || !strings.Contains(got, " of the ") {
		t.Errorf("status %q", got)
	}
	p.search.SetText("no tool is called this")
	if len(p.box.Objects) != 0 || p.status.Text != toolCount("demo", 0, all) {
		t.Errorf("nothing matches, yet %d objects; status %q", len(p.box.Objects), p.status.Text)
	}
}

func TestToolCount(t *testing.T) {
	for _, tc := range []struct {
		shown, all int
		want       string
	}{
		{26, 26, "gh has 26 tools."},
		{1, 1, "gh has 1 tool."},
		{0, 0, "gh has 0 tools."},
		{3, 26, "3 of the 26 tools of gh match."},
		{0, 26, "None of the 26 tools of gh match."},
	} {
		if got := toolCount("gh", tc.shown, tc.all); got != tc.want {
			t.Errorf("%d of %d: %q, want %q", tc.shown, tc.all, got, tc.want)
		}
	}
}
