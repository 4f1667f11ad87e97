package wire

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// post is what a test server saw of one POST.
type post struct {
	method, header, meta string // meta: the _meta protocol version
}

// versionServer is a Streamable HTTP server of revision 2026-07-28 that
// answers server/discover number n (from 1) with reject(n) when that is
// not nil, and the legacy initialize with 2025-11-25. It records every POST.
func versionServer(t *testing.T, reject func(n int) []string) (url string, posts func() []post) {
	var mu sync.Mutex
	var seen []post
	discovers := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Meta map[string]any `json:"_meta"`
			} `json:"params"`
		}
		json.NewDecoder(r.Body).Decode(&m)
		meta, _ := m.Params.Meta[mcp.MetaKeyProtocolVersion].(string)
		mu.Lock()
		seen = append(seen, post{m.Method, r.Header.Get("MCP-Protocol-Version"), meta})
		if m.Method == string(mcp.MethodServerDiscover) {
			discovers++
		}
		n := discovers
		mu.Unlock()
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		result := `{}`
		switch m.Method {
		case string(mcp.MethodServerDiscover):
			if supported := reject(n); supported != nil {
				data, _ := json.Marshal(map[string]any{"supported": supported, "requested": meta})
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32022,"message":"Unsupported protocol version","data":` + string(data) + `}}`))
				return
			}
			result = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}`
		case string(mcp.MethodInitialize):
			result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}`
		case string(mcp.MethodToolsList):
			result = `{"resultType":"complete","tools":[]}`
		}
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + result + `}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []post {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}
}

// TestDiscoverRetriesSupportedVersion is the regression for -32022: a
// server that rejects server/discover but lists the version it carried
// gets it once more (mcp-go v1.2.1 fell back to initialize), and every
// POST of the modern session carries the version in its header and _meta.
func TestDiscoverRetriesSupportedVersion(t *testing.T) {
	tests := []struct {
		name      string
		reject    func(n int) []string
		version   string // negotiated
		discovers int
	}{
		{"answered", func(int) []string { return nil }, "2026-07-28", 1},
		{"rejected once, supported", func(n int) []string {
			if n == 1 {
				return []string{"2026-07-28"}
			}
			return nil
		}, "2026-07-28", 2},
		{"rejected for a legacy version", func(int) []string { return []string{"2025-11-25"} }, "2025-11-25", 1},
		{"rejected every time", func(int) []string { return []string{"2026-07-28"} }, "2025-11-25", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, posts := versionServer(t, tt.reject)
			tr, err := NewStreamableHTTP(url, nil, nil, nil, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			c := client.NewClient(tr)
			defer c.Close()
			ctx := context.Background()
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			req := mcp.InitializeRequest{}
			req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
			req.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
			if _, err := c.Initialize(ctx, req); err != nil {
				t.Fatal(err)
			}
			if got := c.ProtocolVersion(); got != tt.version {
				t.Errorf("negotiated %q, want %q", got, tt.version)
			}
			if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
				t.Fatal(err)
			}
			discovers := 0
			for _, p := range posts() {
				if p.method == string(mcp.MethodServerDiscover) {
					discovers++
				}
				if mcp.IsModernProtocol(tt.version) && (p.header != tt.version || p.meta != tt.version) {
					t.Errorf("%s went with header %q and _meta %q, want %q in both", p.method, p.header, p.meta, tt.version)
				}
			}
			if discovers != tt.discovers {
				t.Errorf("server/discover sent %d times, want %d", discovers, tt.discovers)
			}
		})
	}
}
