package client

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// post is what a test server saw of one POST.
type post struct {
	method, header, meta string // meta: the _meta protocol version
	id                   string // as sent; "" for a notification
}

// versionServer is a Streamable HTTP server of revision 2026-07-28 that
// answers server/discover number n (from 1) with reject(n) when that is
// not nil, and the legacy initialize with 2025-11-25. It records every POST.
// When reject is nil for a discover, hold, if set, is called with the
// request before it is answered.
func versionServer(t *testing.T, reject func(n int) []string, hold ...func(*http.Request)) (url string, posts func() []post) {
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
		meta, _ := m.Params.Meta[metaVersion].(string)
		mu.Lock()
		seen = append(seen, post{m.Method, r.Header.Get("MCP-Protocol-Version"), meta, string(m.ID)})
		if m.Method == "server/discover" {
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
		case "server/discover":
			if supported := reject(n); supported != nil {
				data, _ := json.Marshal(map[string]any{"supported": supported, "requested": meta})
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32022,"message":"Unsupported protocol version","data":` + string(data) + `}}`))
				return
			}
			for _, h := range hold {
				h(r)
			}
			result = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}`
		case "initialize":
			result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}`
		case "tools/list":
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
// gets it once more (mcp-go v1.2.1 fell back to initialize, which a 2026-07-28-only server cannot answer), under an id
// of its own, and every POST of the modern session carries the version in
// its header and _meta.
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
			ctx := context.Background()
			c, err := Connect(ctx, link.NewStreamableClient(url, nil, nil), Options{Info: Implementation{Name: "test", Version: "1"}})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if got := c.ProtocolVersion(); got != tt.version {
				t.Errorf("negotiated %q, want %q", got, tt.version)
			}
			if _, err := c.ListTools(ctx); err != nil {
				t.Fatal(err)
			}
			discovers := 0
			ids := map[string]string{}
			for _, p := range posts() {
				if p.method == "server/discover" {
					discovers++
				}
				if other, ok := ids[p.id]; ok && p.id != "" {
					t.Errorf("%s went with id %s, as %s did before", p.method, p.id, other)
				}
				ids[p.id] = p.method
				if IsModern(tt.version) && (p.header != tt.version || p.meta != tt.version) {
					t.Errorf("%s went with header %q and _meta %q, want %q in both", p.method, p.header, p.meta, tt.version)
				}
			}
			if discovers != tt.discovers {
				t.Errorf("server/discover sent %d times, want %d", discovers, tt.discovers)
			}
		})
	}
}

// TestDiscoverRetryHonoursContext: the retried server/discover ends when
// the context of the connecting does, not when the server answers.
func TestDiscoverRetryHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, posts := versionServer(t, func(n int) []string {
		if n == 1 {
			return []string{"2026-07-28"}
		}
		return nil
	}, func(r *http.Request) {
		cancel()
		<-r.Context().Done() // answers only once the client has gone
	})
	if _, err := Connect(ctx, link.NewStreamableClient(url, nil, nil), Options{Info: Implementation{Name: "test", Version: "1"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Connect: %v, want the context's end", err)
	}
	discovers := 0
	for _, p := range posts() {
		if p.method == "server/discover" {
			discovers++
		}
	}
	if discovers != 2 {
		t.Errorf("server/discover sent %d times, want 2", discovers)
	}
}

// stdioServer is a 2026-07-28 server on pipes: it answers server/discover
// and hands every tools/call's params to call, which returns the result.
func stdioServer(t *testing.T, call func(params gjson.Result) string) link.Link {
	return pipeServer(t, func(m gjson.Result) string {
		switch m.Get("method").String() {
		case "server/discover":
			return `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}`
		case "tools/call":
			return call(m.Get("params"))
		}
		return `{}`
	})
}

// pipeServer is a server on pipes that answers each request with the
// result result returns for it; notifications get no answer.
func pipeServer(t *testing.T, result func(m gjson.Result) string) link.Link {
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	go func() {
		sc := bufio.NewScanner(toServer)
		sc.Buffer(nil, link.MaxMessage)
		for sc.Scan() {
			if m := gjson.Parse(sc.Text()); m.Get("id").Exists() {
				io.WriteString(fromServer, `{"jsonrpc":"2.0","id":`+m.Get("id").Raw+`,"result":`+result(m)+"}\n")
			}
		}
	}()
	t.Cleanup(func() { fromClient.Close(); fromServer.Close() })
	return link.NewLines(toClient, fromClient)
}

// TestCallToolInputRounds: the elicitations of input_required results are
// answered from their params as sent, the call retried with the answers
// and the state as sent, for at most MaxInputRounds rounds; an input
// request Elicit Desk cannot answer ends the call.
func TestCallToolInputRounds(t *testing.T) {
	ask := `{"resultType":"input_required","inputRequests":{"q":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}}}}}},"requestState":"s-%d"}`
	tests := []struct {
		name   string
		rounds int // input_required results before the final one; -1 for ever
		other  bool
		err    string
	}{
		{"complete at once", 0, false, ""},
		{"two rounds", 2, false, ""},
		{"endless", -1, false, "after 8 rounds"},
		{"sampling", 1, true, "does not give (sampling/createMessage)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seen []string // the params each ask carried, and each retry's answers and state
			n := 0
			l := stdioServer(t, func(p gjson.Result) string {
				if n > 0 {
					seen = append(seen, p.Get("inputResponses").Raw+" "+p.Get("requestState").Raw)
				}
				if n == tt.rounds {
					return `{"resultType":"complete","content":[{"type":"text","text":"done"}]}`
				}
				n++
				if tt.other {
					return `{"resultType":"input_required","inputRequests":{"s":{"method":"sampling/createMessage","params":{}}}}`
				}
				return fmt.Sprintf(ask, n)
			})
			var asked []string
			s, err := Connect(t.Context(), l, Options{Elicit: func(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
				asked = append(asked, string(params))
				return json.RawMessage(`{"action":"accept","content":{"z":"1"}}`), nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			res, err := s.CallTool(t.Context(), "t", nil)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %s %v, want an error saying %q", res, err, tt.err)
				}
				return
			}
			if err != nil || !strings.Contains(string(res), "done") {
				t.Fatalf("got %s %v", res, err)
			}
			for i, a := range asked {
				if a != `{"message":"m","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}}}}` {
					t.Errorf("ask %d: params %s", i, a)
				}
			}
			for i, got := range seen {
				if want := fmt.Sprintf(`{"q":{"action":"accept","content":{"z":"1"}}} "s-%d"`, i+1); got != want {
					t.Errorf("retry %d: %s, want %s", i+1, got, want)
				}
			}
			if len(asked) != tt.rounds || len(seen) != tt.rounds {
				t.Errorf("%d asked, %d retries, want %d", len(asked), len(seen), tt.rounds)
			}
		})
	}
}
