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
// URL: it lists the tools of a JSON array, where $SERVER stands for its
// own http://host:port, and answers every call "done". It records the
// headers of each tools/call, and the path of any request elsewhere, such
// as for a schema a $ref names.
type toolServer struct {
	URL  string // of the MCP endpoint
	Base string // http://host:port, which $SERVER stands for

	mu     sync.Mutex
	calls  []http.Header
	strays []string
}

func newToolServer(t *testing.T, tools string) *toolServer {
	t.Helper()
	s := &toolServer{}
	srv := httptest.NewUnstartedServer(nil)
	s.Base = "http://" + srv.Listener.Addr().String()
	s.URL = s.Base + "/mcp"
	tools = strings.ReplaceAll(tools, "$SERVER", s.Base)
	results := map[string]string{
		"server/discover": `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"tools","version":"1"}}`,
		"initialize":      `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"tools","version":"1"}}`,
		"tools/list":      `{"resultType":"complete","tools":` + tools + `}`,
		"tools/call":      `{"resultType":"complete","content":[{"type":"text","text":"done"}]}`,
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
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&m) != nil {
			http.Error(w, "POST JSON-RPC only", http.StatusMethodNotAllowed)
			return
		}
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if m.Method == "tools/call" {
			s.mu.Lock()
			s.calls = append(s.calls, r.Header.Clone())
			s.mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, cmp.Or(results[m.Method], "{}"))
	})
	srv.Start()
	t.Cleanup(srv.Close)
	return s
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
