package servers

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers/bridge"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// hostileMarks are tools whose x-mcp-header marks a server may get wrong
// or use to confuse a client: names that differ only in case, marks that
// are no header name, a mark on an object, next to tools whose marks are
// fine (nested, several, an empty value).
const hostileMarks = `[
	{"name":"case","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"REGION"}}}},
	{"name":"space","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"My Region"}}}},
	{"name":"colon","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region:x"}}}},
	{"name":"empty","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":""}}}},
	{"name":"object","inputSchema":{"type":"object","properties":{"a":{"type":"object","x-mcp-header":"A"}}}},
	{"name":"number","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":7}}}},
	{"name":"fine","inputSchema":{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"n":{"type":"integer","x-mcp-header":"Count"},
		"deep":{"type":"object","properties":{"flag":{"type":"boolean","x-mcp-header":"Flag"}}},
		"blank":{"type":"string","x-mcp-header":"Blank"}}}}]`

// hostileArgs are the arguments of every call: each tool finds its own.
var hostileArgs = map[string]any{"a": "x", "b": "y", "region": "Zürich", "n": 3, "deep": map[string]any{"flag": true}, "blank": ""}

// TestHeadersSameThroughCallAndBridge is the differential test of issue
// 25: one tool with hostile x-mcp-header marks sends the same headers
// through Conn.CallTool (what `elicitdesk call` uses) as through the
// bridge's session, and a tool refused for its marks is refused both ways.
func TestHeadersSameThroughCallAndBridge(t *testing.T) {
	var names []string
	for _, tool := range gjson.Parse(hostileMarks).Array() {
		names = append(names, tool.Get("name").String())
	}
	direct := callEach(t, names, func(ctx context.Context, srv *toolServer) func(string) error {
		c := dialTools(ctx, t, srv, "")
		return func(name string) error {
			_, err := c.CallTool(ctx, name, hostileArgs)
			return err
		}
	})
	bridged := callEach(t, names, func(ctx context.Context, srv *toolServer) func(string) error {
		return bridgeCaller(ctx, t, srv)
	})
	for _, name := range names {
		d, b := direct[name], bridged[name]
		if d.refused != b.refused {
			t.Errorf("%s: refused directly %v, through the bridge %v", name, d.refused, b.refused)
		}
		if !slices.Equal(d.headers, b.headers) {
			t.Errorf("%s: headers differ\n direct %q\nbridged %q", name, d.headers, b.headers)
		}
	}
	// Not two empty lists agreeing: the fine tool sends its headers.
	if got := direct["fine"].headers; !slices.Contains(got, "Mcp-Param-Region: =?base64?WsO8cmljaA==?=") || !slices.Contains(got, "Mcp-Param-Blank: ") {
		t.Errorf("the fine tool sent %q", got)
	}
	if !direct["case"].refused {
		t.Error("a tool whose marks differ only in case was called")
	}
}

// sent is what one call of a tool sent: its Mcp-* headers, sorted, or
// that it was refused before reaching the server.
type sent struct {
	headers []string
	refused bool
}

// callEach calls every tool, each on a server of its own (the first call
// of a connection lists the tools), and returns what each call sent.
func callEach(t *testing.T, names []string, connect func(context.Context, *toolServer) func(string) error) map[string]sent {
	t.Helper()
	out := map[string]sent{}
	for _, name := range names {
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		srv := newToolServer(t, hostileMarks)
		err := connect(ctx, srv)(name)
		calls := srv.Calls()
		cancel()
		var s sent
		switch {
		case len(calls) == 0:
			s.refused = true
			if err == nil {
				t.Errorf("%s: not sent, yet no error", name)
			}
		case len(calls) == 1:
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
			for k, vs := range calls[0] {
				if strings.HasPrefix(k, "Mcp-") {
					for _, v := range vs {
						s.headers = append(s.headers, k+": "+v)
					}
				}
			}
			slices.Sort(s.headers)
		default:
			t.Fatalf("%s: %d calls sent", name, len(calls))
		}
		out[name] = s
	}
	return out
}

// bridgeCaller starts a bridge session to srv, its host a pipe the test
// writes 2026-07-28 requests to, as a stdio host does, and returns a
// function that calls a tool through it.
func bridgeCaller(ctx context.Context, t *testing.T, srv *toolServer) func(string) error {
	toSession, fromHost := io.Pipe()
	toHost, fromSession := io.Pipe()
	upstream := link.NewStreamableClient(srv.URL, nil, nil)
	upstream.SetLogger(quietLog())
	s := bridge.New(link.NewLines(toSession, fromSession), upstream, bridge.Options{Desk: noDesk{}})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		s.Run(context.WithoutCancel(ctx))
	}()
	t.Cleanup(func() { fromHost.Close(); toHost.Close(); <-ended })
	answers := bufio.NewScanner(toHost)
	answers.Buffer(nil, link.MaxMessage)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"host","version":"1"}}`
	args, _ := json.Marshal(hostileArgs)
	id := 0
	return func(name string) error {
		id++
		req := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"` + name + `","arguments":` + string(args) + `,` + meta + `}}` + "\n"
		if _, err := io.WriteString(fromHost, req); err != nil {
			return err
		}
		if !answers.Scan() {
			t.Fatalf("the bridge closed: %v", answers.Err())
		}
		if e := gjson.Get(answers.Text(), "error"); e.Exists() {
			return &bridgeError{e.Get("message").String()}
		}
		return nil
	}
}

type bridgeError struct{ msg string }

func (e *bridgeError) Error() string { return e.msg }

// noDesk is a desk no elicitation reaches in this test.
type noDesk struct{}

func (noDesk) Ask(context.Context, endpoint.Question) (json.RawMessage, error) {
	return nil, bridge.ErrNoWindow
}
func (noDesk) Complete(endpoint.Completion)             {}
func (noDesk) Attach(context.Context, endpoint.Bridged) {}
