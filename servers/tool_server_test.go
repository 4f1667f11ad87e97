package servers

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// toolServer is a Streamable HTTP server, of 2026-07-28 and 2025-11-25, at
// URL: it lists the tools of JSON arrays, one a page, where $SERVER stands
// for its own http://host:port, or answers the listing with an error when
// it has no pages; it answers every call "done". It counts the listings
// asked for, and records the headers of each tools/call, and the path of
// any request elsewhere, such as for a schema a $ref names.
type toolServer struct {
	URL  string // of the MCP endpoint
	Base string // http://host:port, which $SERVER stands for

	mu     sync.Mutex
	lists  int
	calls  []http.Header
	strays []string
}

func newToolServer(t *testing.T, pages ...string) *toolServer {
	t.Helper()
	return newToolServerAs(t, `{"name":"tools","version":"1"}`, pages...)
}

// newToolServerAs is newToolServer introducing itself as info, a
// serverInfo object, in both handshakes.
func newToolServerAs(t *testing.T, info string, pages ...string) *toolServer {
	t.Helper()
	s := &toolServer{}
	srv := httptest.NewUnstartedServer(nil)
	s.Base = "http://" + srv.Listener.Addr().String()
	s.URL = s.Base + "/mcp"
	results := map[string]string{
		"server/discover": `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":` + info + `}}`,
		"initialize":      `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":` + info + `}`,
		"tools/call":      `{"resultType":"complete","content":[{"type":"text","text":"done"}]}`,
	}
	// Page i is asked for with the cursor "page-i"; the first with none.
	for i, tools := range pages {
		next := ""
		if i+1 < len(pages) {
			next = fmt.Sprintf(`,"nextCursor":"page-%d"`, i+1)
		}
		results[fmt.Sprintf("tools/list page-%d", i)] = `{"resultType":"complete","tools":` + strings.ReplaceAll(tools, "$SERVER", s.Base) + next + `}`
	}
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/mcp" {
			s.mu.Lock()
			s.strays = append(s.strays, r.URL.Path)
			s.mu.Unlock()
			http.NotFound(w, r)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Cursor string `json:"cursor"`
			} `json:"params"`
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&m) != nil {
			http.Error(w, "POST JSON-RPC only", http.StatusMethodNotAllowed)
			return
		}
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		s.mu.Lock()
		switch m.Method {
		case "tools/call":
			s.calls = append(s.calls, r.Header.Clone())
		case "tools/list":
			s.lists++
		}
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if m.Method == "tools/list" {
			page, ok := results["tools/list "+cmp.Or(m.Params.Cursor, "page-0")]
			if !ok {
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"no such page"}}`, m.ID)
				return
			}
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, page)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, cmp.Or(results[m.Method], "{}"))
	})
	srv.Start()
	t.Cleanup(srv.Close)
	return s
}

// Lists returns how many tools/list requests came so far.
func (s *toolServer) Lists() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lists
}

// Calls returns the headers of the tools/call requests so far.
func (s *toolServer) Calls() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// Strays returns the paths asked for other than the MCP endpoint.
func (s *toolServer) Strays() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.strays)
}
