package serversview

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
	"github.com/elicitdesk/elicitdesk/servers"
)

// TestHostileServers shows a server, its tools and a call's outcomes all
// written in each hostile string, and walks the Servers window (list,
// overview with serverInfo, last error and stderr; tools) and the call
// window (its form from the tool's schema, a result, an error, a -32042
// answer's links): none may show a hidden character raw.
func TestHostileServers(t *testing.T) {
	for _, hs := range uitest.HostileStrings(t) {
		t.Run(hs.Name, func(t *testing.T) {
			s := hs.Text
			h := newHarness(t, []byte(`{"mcpServers":{}}`))
			info := untrusted.Text(s)
			who := servers.Identity{Name: s, Target: s, Reported: servers.ServerInfo{Name: info, Title: info, Version: info}}
			w := h.w
			w.rows = []row{{Name: s, Status: servers.Status{Name: s, State: servers.StateFailed, Err: errors.New(s), Identity: who, Stderr: s}}}
			w.showRows()
			uitest.Check(t, "Servers", uitest.WindowTexts(w.win))
			uitest.CheckWidth(t, "Servers", w.win.Content(), 1000)
			// servers.json, which hosts write too: a file that cannot be read,
			// and an entry the editor opens with its problems.
			w.list.show(w.rows, s, errors.New(s))
			w.openEditor(s, entryForm{}, errors.New(s)) // its inputs hold what is saved, as it is
			uitest.Check(t, "servers.json problems", uitest.WindowTexts(w.win))

			tool := servers.Tool{Name: s, Title: untrusted.Text("T " + s), Description: untrusted.Text(s), InputSchema: uitest.HostileSchema(s)}
			w.tools.loadedTools(s, []servers.Tool{tool}, nil)
			uitest.Check(t, "Servers tools", uitest.Texts(w.tools.content))
			w.tools.loadedTools(s, nil, errors.New(s))
			uitest.Check(t, "Servers tools error", uitest.Texts(w.tools.content))

			w.openCall(s, tool)
			c := w.calls[s+"\x00"+s]
			uitest.Check(t, "call arguments", uitest.WindowTexts(c.win))
			uitest.CheckWidth(t, "call arguments", c.win.Content(), 900)
			// A schema no form can show goes to the JSON editor, saying why
			// in the server's words; a value the form cannot take says so too.
			nested := servers.Tool{Name: s, InputSchema: []byte(`{"type":"object","properties":{` + quoteJSON(s) + `:{"type":"object"}}}`)}
			w.openCall(s+"-nested", nested)
			uitest.Check(t, "call arguments as JSON", uitest.WindowTexts(w.calls[s+"-nested\x00"+s].win))
			c.switchEditor(true)
			c.jsonText.SetText(`{` + untrusted.JSON([]byte(quoteJSON(s))) + `: 1}`) // a person types escapes
			c.switchEditor(false)
			uitest.Check(t, "call arguments that do not fit the form", uitest.WindowTexts(c.win))
			for _, end := range []struct {
				name string
				res  *servers.ToolResult
				err  error
			}{
				{"result", hostileResult(t, s, false), nil},
				{"tool error", hostileResult(t, s, true), nil},
				{"failure", nil, errors.New(s)},
				{"links", nil, &jsonrpc.Error{Code: jsonrpc.CodeURLRequired, Message: s, Data: json.RawMessage(`{"elicitations":[{"mode":"url","message":` + quoteJSON(s) + `,"url":` + quoteJSON("https://x.example/"+s) + `,"elicitationId":"e"}]}`)}},
			} {
				c.finished(end.res, end.err, who)
				uitest.Check(t, "call "+end.name, uitest.WindowTexts(c.win))
			}
		})
	}
}

// hostileResult is a tool result that says s in every kind of content,
// and in its structured content.
func hostileResult(t *testing.T, s string, isError bool) *servers.ToolResult {
	t.Helper()
	q := quoteJSON(s)
	raw := `{"isError":` + quoteJSON(isError) + `,"content":[` +
		`{"type":"text","text":` + q + `},` +
		`{"type":"image","mimeType":` + q + `,"data":"AAAA"},` +
		`{"type":"resource_link","name":` + q + `,"uri":` + q + `},` +
		`{"type":"resource","resource":{"uri":` + q + `,"text":` + q + `}},` +
		`{"type":` + q + `,"x":` + q + `}` +
		`],"structuredContent":{` + q + `:` + q + `}}`
	res, err := servers.ParseToolResult([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// quoteJSON is v as JSON.
func quoteJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
