package servers

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/testkit/hostile"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// jsonSize is the length of v as JSON.
func jsonSize(t *testing.T, v any) int {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

// TestParseToolCuts: a tool's title and description are cut where they
// are read, and visibly; its name, which calls it, stays whole, and only
// ShownName is cut.
func TestParseToolCuts(t *testing.T) {
	strs, err := hostile.Strings()
	if err != nil {
		t.Fatal(err)
	}
	strs = append(strs, hostile.String{Name: "flood", Text: hostile.Flood()})
	for _, h := range strs {
		for _, field := range []string{"title", "annotations.title", "description"} {
			t.Run(h.Name+"/"+field, func(t *testing.T) {
				var raw string
				switch field {
				case "title":
					raw = `{"name":` + hostile.RawJSON(h.Text) + `,"title":` + hostile.RawJSON(h.Text) + `}`
				case "annotations.title":
					raw = `{"name":` + hostile.RawJSON(h.Text) + `,"annotations":{"title":` + hostile.RawJSON(h.Text) + `}}`
				case "description":
					raw = `{"name":` + hostile.RawJSON(h.Text) + `,"description":` + hostile.RawJSON(h.Text) + `}`
				}
				tool, err := ParseTool(json.RawMessage(raw))
				if err != nil {
					t.Fatal(err)
				}
				if tool.Name != h.Text {
					t.Errorf("Name is %d bytes, want the %d sent: it is what tools/call names", len(tool.Name), len(h.Text))
				}
				name := untrusted.Text(h.Text).Cut(untrusted.NameBytes)
				if tool.ShownName() != name {
					t.Errorf("ShownName() = %+q, want %+q", string(tool.ShownName()), string(name))
				}
				want := map[string]untrusted.Text{
					"title":             untrusted.Text(h.Text).Cut(untrusted.NameBytes),
					"annotations.title": untrusted.Text(h.Text).Cut(untrusted.NameBytes),
					"description":       untrusted.Text(h.Text).Cut(untrusted.ProseBytes),
				}[field]
				got := map[string]untrusted.Text{"title": tool.Title, "annotations.title": tool.Title, "description": tool.Description}[field]
				if got != want {
					t.Errorf("%s = %+q, want %+q", field, string(got), string(want))
				}
				if len(h.Text) > untrusted.ProseBytes && !strings.HasSuffix(string(got), "bytes in all⟩") {
					t.Errorf("%s %+q does not show the cut", field, string(got)[max(0, len(got)-60):])
				}
			})
		}
	}
}

// TestManagerStatusBounded is issue 32's bad input: a server whose name,
// title or version is 7 MiB of U+2028, connected through a Manager, has a
// Status that stays small as JSON, the form it takes to the windows.
func TestManagerStatusBounded(t *testing.T) {
	for _, tt := range []struct{ name, info string }{
		{"name", `{"name":` + hostile.RawJSON(hostile.Flood()) + `,"version":"1"}`},
		{"title", `{"name":"n","title":` + hostile.RawJSON(hostile.Flood()) + `,"version":"1"}`},
		{"version", `{"name":"n","version":` + hostile.RawJSON(hostile.Flood()) + `}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newToolServerAs(t, tt.info, `[]`)
			m := NewManager(NewRouter(DefaultLimits, quietLog()), quietLog(), nil)
			defer m.Close()
			m.Apply(&config.File{Servers: []config.Server{{Name: "huge", URL: srv.URL, Transport: config.TransportHTTP}}})
			waitFor(t, m, "huge ready", func() bool { return statusOf(m, "huge").State == StateReady })
			st := statusOf(m, "huge")
			if n := jsonSize(t, st); n > 4<<10 {
				t.Errorf("the status is %d bytes of JSON, want at most 4 KiB", n)
			}
			if got := st.Identity.Reported.String(); !strings.Contains(got, "bytes in all⟩") {
				t.Errorf("Reported (%d bytes) does not show the cut", len(got))
			}
		})
	}
}

// TestExplainCuts: a server's error of 7 MiB, as a status shows it, is
// cut in both its summary and its details.
func TestExplainCuts(t *testing.T) {
	x := Explain(errors.Join(errors.New("initializing"), &jsonrpc.Error{Code: -1, Message: hostile.Flood()}), "")
	if n := jsonSize(t, x); n > 4*untrusted.ProseBytes {
		t.Errorf("the explanation is %d bytes of JSON", n)
	}
	if !strings.HasSuffix(string(x.Details), "bytes in all⟩") {
		t.Errorf("the details do not show the cut")
	}
}
