package link

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/testkit/leaktest"
)

// fakeServer is a Streamable HTTP server whose answers the tests choose by
// the method they POST.
type fakeServer struct {
	t       *testing.T
	getCode int // status for GET; 0 = an event stream

	mu      sync.Mutex
	headers []http.Header // of every POST, in order
	deletes []string      // session ids DELETE carried
	gets    chan http.Header
}

func newFakeServer(t *testing.T, getCode int) (*fakeServer, *httptest.Server) {
	f := &fakeServer{t: t, getCode: getCode, gets: make(chan http.Header, 4)}
	return f, httptest.NewServer(f)
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodDelete:
		f.mu.Lock()
		f.deletes = append(f.deletes, r.Header.Get(headerSession))
		f.mu.Unlock()
		return
	case http.MethodGet:
		f.gets <- r.Header.Clone()
		if f.getCode != 0 {
			w.WriteHeader(f.getCode)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "id: g1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		return
	}
	f.mu.Lock()
	f.headers = append(f.headers, r.Header.Clone())
	f.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	m, err := Parse(body)
	if err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	resp := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"ok":  true}}`
	switch m.Method {
	case "initialize":
		w.Header().Set(headerSession, "sess-1")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{"protocolVersion":"2025-06-18"}}`)
	case "json":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, resp)
	case "batch":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"jsonrpc":"2.0","method":"notifications/message","params":{}}, `+resp+`]`)
	case "sse":
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, ": keep-alive\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\ndata: \"params\":{}}\n\ndata: "+resp+"\n\n")
	case "unanswered":
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n")
	case "big":
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":"+string(m.ID)+",\"result\":\""+strings.Repeat("x", MaxMessage)+"\"}\n\ndata: "+resp+"\n\n")
	case "refused":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"error":{"code":-32602,"message":"unsupported"}}`)
	case "nullid":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32020,"message":"mismatch"}}`)
	case "fail":
		http.Error(w, strings.Repeat("broken ", 1000), http.StatusInternalServerError)
	case "gone":
		http.Error(w, "no such session", http.StatusNotFound)
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

func request(t *testing.T, id int, method string) Message {
	t.Helper()
	m, err := Parse([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{}}`, id, method)))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func notification(t *testing.T, method string) Message {
	t.Helper()
	m, err := Parse([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q}`, method)))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// readUntil reads messages until one answers id, returning all read.
func readUntil(t *testing.T, l Link, id string) []Message {
	t.Helper()
	var got []Message
	for {
		m, err := l.Read()
		if err != nil {
			var bad *BadMessage
			if errors.As(err, &bad) {
				got = append(got, Message{Raw: json.RawMessage(`"bad"`)})
				continue
			}
			t.Fatalf("Read: %v (after %d messages)", err, len(got))
		}
		got = append(got, m)
		if m.IsResponse() && m.Answers() == id {
			return got
		}
	}
}

func TestStreamableClientResponses(t *testing.T) {
	defer leaktest.Check(t)()
	_, ts := newFakeServer(t, http.StatusMethodNotAllowed)
	defer ts.Close()
	hc := testHTTP()
	defer hc.CloseIdleConnections()
	c := NewStreamableClient(ts.URL, map[string]string{"Authorization": "Bearer x"}, hc)
	defer c.Close()
	ctx := context.Background()
	tests := []struct {
		method string
		want   []string // what Read returns, in order: methods, "response", "error: …", "bad"
		status int      // the last message's Status
	}{
		{"json", []string{"response"}, 0},
		{"batch", []string{"notifications/message", "response"}, 0},
		{"sse", []string{"notifications/progress", "response"}, 0},
		{"unanswered", []string{"notifications/progress", "error: the server's event stream ended without a response"}, 0},
		{"big", []string{"bad", "response"}, 0},
		{"fail", []string{"error: server answered HTTP 500 Internal Server Error: broken broken"}, 500},
		{"refused", []string{"error: {\"code\":-32602,\"message\":\"unsupported\"}"}, 400},
		{"nullid", []string{"error: {\"code\":-32020,\"message\":\"mismatch\"}}"}, 400},
		{"accepted", []string{"error: server accepted the request (HTTP 202 Accepted) but sent no response"}, 0},
	}
	for i, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			req := request(t, i+10, tt.method)
			if err := c.Write(ctx, req); err != nil {
				t.Fatal(err)
			}
			got := readUntil(t, c, req.Key())
			if len(got) != len(tt.want) {
				t.Fatalf("got %d messages, want %d: %s", len(got), len(tt.want), describe(got))
			}
			if st := got[len(got)-1].Status; st != tt.status {
				t.Errorf("Status %d, want %d", st, tt.status)
			}
			for j, m := range got {
				w := tt.want[j]
				switch {
				case w == "bad":
					if string(m.Raw) != `"bad"` {
						t.Errorf("message %d: %s, want a BadMessage", j, m.Raw)
					}
					continue
				case w == "response":
					if !strings.Contains(string(m.Raw), `"ok":  true`) {
						t.Errorf("message %d: %s, want the server's bytes", j, m.Raw)
					}
				case strings.HasPrefix(w, "error: "):
					if !strings.Contains(string(m.Raw), strings.TrimPrefix(w, "error: ")) || len(m.Raw) > 2*excerptSize+200 {
						t.Errorf("message %d: %s, want an error with %q, bounded", j, m.Raw, w)
					}
				default:
					if m.Method != w {
						t.Errorf("message %d: %s, want %s", j, m.Raw, w)
					}
				}
				if IDKey(m.Related) != req.Key() {
					t.Errorf("message %d: Related %s, want %s", j, m.Related, req.ID)
				}
			}
		})
	}
}

func describe(ms []Message) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(string(m.Raw[:min(len(m.Raw), 200)]) + "\n")
	}
	return b.String()
}

func TestStreamableClientSession(t *testing.T) {
	for _, getCode := range []int{0, http.StatusMethodNotAllowed} {
		t.Run(fmt.Sprint("GET ", getCode), func(t *testing.T) {
			defer leaktest.Check(t)()
			f, ts := newFakeServer(t, getCode)
			defer ts.Close()
			hc := testHTTP()
			defer hc.CloseIdleConnections()
			c := NewStreamableClient(ts.URL, map[string]string{"X-Custom": "yes"}, hc)
			ctx := context.Background()
			init := request(t, 1, "initialize")
			if err := c.Write(ctx, init); err != nil {
				t.Fatal(err)
			}
			readUntil(t, c, "1")
			if err := c.Write(ctx, notification(t, "notifications/initialized")); err != nil {
				t.Fatal(err)
			}
			h := <-f.gets
			if h.Get(headerSession) != "sess-1" || h.Get(headerVersion) != "2025-06-18" || h.Get("Accept") != "text/event-stream" {
				t.Errorf("GET headers %v", h)
			}
			if getCode == 0 {
				m, err := c.Read()
				if err != nil || m.Method != "notifications/tools/list_changed" || m.Related != nil {
					t.Errorf("GET stream: %s %v", m.Raw, err)
				}
			}
			if err := c.Write(ctx, request(t, 2, "json")); err != nil {
				t.Fatal(err)
			}
			readUntil(t, c, "2")
			f.mu.Lock()
			for i, h := range f.headers {
				if h.Get("X-Custom") != "yes" || !strings.Contains(h.Get("Accept"), "text/event-stream") || !strings.Contains(h.Get("Accept"), "application/json") {
					t.Errorf("POST %d headers %v", i, h)
				}
				if i > 0 && (h.Get(headerSession) != "sess-1" || h.Get(headerVersion) != "2025-06-18") {
					t.Errorf("POST %d: session %q version %q", i, h.Get(headerSession), h.Get(headerVersion))
				}
			}
			if h := f.headers[len(f.headers)-1]; h.Get(headerMethod) != "json" {
				t.Errorf("Mcp-Method %q", h.Get(headerMethod))
			}
			f.mu.Unlock()
			if err := c.Write(ctx, request(t, 3, "gone")); err != nil {
				t.Fatal(err)
			}
			if got := readUntil(t, c, "3"); !strings.Contains(string(got[len(got)-1].Raw), "session sess-1 has expired") {
				t.Errorf("404: %s", got[len(got)-1].Raw)
			}
			if err := c.Write(ctx, notification(t, "gone")); err == nil {
				t.Error("a notification's 404: no error")
			}
			c.Close()
			if _, err := c.Read(); err != io.EOF {
				t.Errorf("Read after Close: %v", err)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if len(f.deletes) != 1 || f.deletes[0] != "sess-1" {
				t.Errorf("DELETEs %q", f.deletes)
			}
		})
	}
}

func TestStreamableClientVersionFromMeta(t *testing.T) {
	defer leaktest.Check(t)()
	f, ts := newFakeServer(t, 0)
	defer ts.Close()
	hc := testHTTP()
	defer hc.CloseIdleConnections()
	c := NewStreamableClient(ts.URL, nil, hc)
	defer c.Close()
	m, _ := Parse([]byte(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"échec","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`))
	if err := c.Write(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	readUntil(t, c, `"a"`)
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.headers[len(f.headers)-1] // after a listing, for the tool's x-mcp-header marks
	if h.Get(headerVersion) != "2026-07-28" || h.Get(headerMethod) != "tools/call" || h.Get(headerName) != "=?base64?w6ljaGVj?=" {
		t.Errorf("headers %v", h)
	}
}

func TestStreamableClientUnreachable(t *testing.T) {
	defer leaktest.Check(t)()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	hc := testHTTP()
	defer hc.CloseIdleConnections()
	c := NewStreamableClient(url, nil, hc)
	defer c.Close()
	if err := c.Write(context.Background(), request(t, 7, "json")); err != nil {
		t.Fatal(err)
	}
	got := readUntil(t, c, "7")
	if !strings.Contains(string(got[0].Raw), "cannot reach the server") || !strings.Contains(string(got[0].Raw), `"code":-32000`) {
		t.Errorf("got %s", got[0].Raw)
	}
	if err := c.Write(context.Background(), notification(t, "x")); err == nil {
		t.Error("notification to nowhere: no error")
	}
}

func TestStreamableClientResume(t *testing.T) {
	defer leaktest.Check(t)()
	resumed := make(chan string, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		if r.Method == http.MethodGet {
			resumed <- r.Header.Get(headerLastEventID)
			fmt.Fprint(w, "id: e2\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
			return
		}
		fmt.Fprint(w, "id: e1\nretry: 1\ndata: \n\n")
	}))
	defer ts.Close()
	hc := testHTTP()
	defer hc.CloseIdleConnections()
	c := NewStreamableClient(ts.URL, nil, hc)
	defer c.Close()
	if err := c.Write(context.Background(), request(t, 1, "slow")); err != nil {
		t.Fatal(err)
	}
	got := readUntil(t, c, "1")
	if len(got) != 1 || string(got[0].Related) != "1" || strings.Contains(string(got[0].Raw), "error") {
		t.Errorf("got %s", describe(got))
	}
	if id := <-resumed; id != "e1" {
		t.Errorf("Last-Event-ID %q", id)
	}
}

func TestSSEClient(t *testing.T) {
	defer leaktest.Check(t)()
	posts := make(chan string, 4)
	events := make(chan string, 4)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sse", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: endpoint\ndata: /message?s=1\n\n")
		w.(http.Flusher).Flush()
		for {
			select {
			case e, ok := <-events:
				if !ok {
					return
				}
				fmt.Fprint(w, "event: message\ndata: "+e+"\n\n")
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	})
	mux.HandleFunc("POST /message", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if strings.Contains(string(b), "refuse") {
			http.Error(w, "no", http.StatusBadRequest)
			return
		}
		posts <- r.URL.RawQuery + " " + string(b)
		w.WriteHeader(http.StatusAccepted)
	})
	ts := httptest.NewServer(mux)
	defer ts.Close()
	hc := testHTTP()
	defer hc.CloseIdleConnections()
	c := NewSSEClient(ts.URL+"/sse", nil, hc)
	defer c.Close()
	ctx := context.Background()
	req := request(t, 1, "ping")
	if err := c.Write(ctx, req); err != nil {
		t.Fatal(err)
	}
	if p := <-posts; p != "s=1 "+string(req.Raw) {
		t.Errorf("POST %q", p)
	}
	events <- `{"jsonrpc":"2.0","id":1,"result":{}}`
	if m, err := c.Read(); err != nil || m.Key() != "1" {
		t.Errorf("Read %s %v", m.Raw, err)
	}
	if err := c.Write(ctx, request(t, 2, "refuse")); err != nil {
		t.Fatal(err)
	}
	if m, err := c.Read(); err != nil || !strings.Contains(string(m.Raw), "HTTP 400") {
		t.Errorf("refused: %s %v", m.Raw, err)
	}
	close(events)
	if _, err := c.Read(); err != io.EOF {
		t.Errorf("after the stream: %v", err)
	}
}

func TestSSEClientForeignEndpoint(t *testing.T) {
	defer leaktest.Check(t)()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: endpoint\ndata: http://evil.example/message\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer ts.Close()
	hc := testHTTP()
	defer hc.CloseIdleConnections()
	c := NewSSEClient(ts.URL, nil, hc)
	defer c.Close()
	if _, err := c.Read(); err == nil || !strings.Contains(err.Error(), "another origin") {
		t.Errorf("Read: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Write(ctx, notification(t, "x")); err == nil {
		t.Error("Write to a refused endpoint: no error")
	}
}

// testHTTP is a client of its own, whose idle connections a test can close
// before it counts goroutines.
func testHTTP() *http.Client { return &http.Client{Transport: &http.Transport{}} }

// TestStreamableClientGetReconnects checks the standalone GET stream comes
// back after the server drops it, resuming after the last event id.
func TestStreamableClientGetReconnects(t *testing.T) {
	defer leaktest.Check(t)()
	gets := make(chan string, 4)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet:
			gets <- r.Header.Get(headerLastEventID)
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "id: e1\nretry: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n\n")
			w.(http.Flusher).Flush()
			if r.Header.Get(headerLastEventID) != "" {
				<-r.Context().Done() // the second stream stays
			}
		case http.MethodPost:
			w.Header().Set(headerSession, "s")
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	defer ts.Close()
	hc := testHTTP()
	defer hc.CloseIdleConnections()
	c := NewStreamableClient(ts.URL, nil, hc)
	defer c.Close()
	if err := c.Write(context.Background(), notification(t, "notifications/initialized")); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"", "e1"} {
		if got := <-gets; got != want {
			t.Errorf("Last-Event-ID %q, want %q", got, want)
		}
		if m, err := c.Read(); err != nil || m.Related != nil || !strings.HasPrefix(m.Method, "n") {
			t.Errorf("Read %s %v", m.Raw, err)
		}
	}
}

// TestStreamableClientGetBeforeNext checks notifications/initialized
// returns only once the standalone GET stream is open, so the host's next
// request cannot overtake it: a server sends a request unrelated to any
// POST on that stream alone, and may drop it while the stream is not open.
func TestStreamableClientGetBeforeNext(t *testing.T) {
	defer leaktest.Check(t)()
	var mu sync.Mutex
	var order []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		m, _ := Parse(b)
		mu.Lock()
		order = append(order, r.Method+" "+m.Method)
		mu.Unlock()
		w.Header().Set(headerSession, "s")
		switch {
		case r.Method == http.MethodGet:
			w.Header().Set("Content-Type", "text/event-stream")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		case m.IsRequest():
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{}}`)
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	defer ts.Close()
	hc := testHTTP()
	defer hc.CloseIdleConnections()
	c := NewStreamableClient(ts.URL, nil, hc)
	defer c.Close()
	ctx := context.Background()
	for _, m := range []Message{notification(t, "notifications/initialized"), request(t, 1, "tools/call")} {
		if err := c.Write(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	readUntil(t, c, "1")
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"POST notifications/initialized", "GET ", "POST tools/call"}; !slices.Equal(order, want) {
		t.Errorf("the server saw %q, want %q", order, want)
	}
}

// TestStreamableClientCancel checks a 2026-07-28 request is cancelled by
// closing its stream, with no made-up answer and no POSTed notification.
func TestStreamableClientCancel(t *testing.T) {
	defer leaktest.Check(t)()
	left := make(chan struct{})
	posts := make(chan string, 4)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		posts <- string(b)
		m, _ := Parse(b)
		w.Header().Set("Content-Type", "text/event-stream")
		if m.Method == "slow" {
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			close(left)
			return
		}
		fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":"+string(m.ID)+",\"result\":{}}\n\n")
	}))
	defer ts.Close()
	hc := testHTTP()
	defer hc.CloseIdleConnections()
	c := NewStreamableClient(ts.URL, nil, hc)
	defer c.Close()
	ctx := context.Background()
	slow, _ := Parse([]byte(`{"jsonrpc":"2.0","id":1,"method":"slow","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`))
	if err := c.Write(ctx, slow); err != nil {
		t.Fatal(err)
	}
	<-posts
	cancelled, _ := Parse([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`))
	if err := c.Write(ctx, cancelled); err != nil {
		t.Fatal(err)
	}
	<-left
	waitFor(t, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.flights) == 0
	})
	if err := c.Write(ctx, request(t, 2, "quick")); err != nil {
		t.Fatal(err)
	}
	if p := <-posts; !strings.Contains(p, "quick") {
		t.Errorf("POSTed %s, want only the next request", p)
	}
	if m, err := c.Read(); err != nil || m.Key() != "2" || strings.Contains(string(m.Raw), "error") {
		t.Errorf("Read %s %v, want the answer to 2 and nothing for 1", m.Raw, err)
	}
}

// paramTools is a server's tools, on two pages, each with x-mcp-header
// marks: sql's follow the rules (a number, a mark that is not a token or
// one under an array's items are not mirrored); the others' break them.
var paramTools = map[string]string{
	"": `{"tools":[
		{"name":"number","inputSchema":{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}},
		{"name":"empty","inputSchema":{"type":"object","properties":{"e":{"type":"string","x-mcp-header":""}}}},
		{"name":"spaced","inputSchema":{"type":"object","properties":{"s":{"type":"string","x-mcp-header":"a b"}}}},
		{"name":"twice","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Same"},"o":{"type":"object","properties":{"b":{"type":"string","x-mcp-header":"SAME"}}}}}},
		{"name":"plain","inputSchema":{"type":"object"}}],"nextCursor":"p2"}`,
	"p2": `{"tools":[{"name":"sql","inputSchema":{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"limit":{"type":["integer"],"x-mcp-header":"Limit"},
		"dry":{"type":"boolean","x-mcp-header":"Dry"},
		"ratio":{"type":"number"},
		"greeting":{"type":"string","x-mcp-header":"Greeting"},
		"note":{"type":"string","x-mcp-header":"Note"},
		"opts":{"type":"object","properties":{"tenant":{"type":"string","x-mcp-header":"Tenant"}}},
		"list":{"type":"array","items":{"type":"object","properties":{"x":{"type":"string","x-mcp-header":"X"}}}}}}}]}`,
}

// TestStreamableClientParamHeaders checks tools/call carries the
// Mcp-Param-* headers its tool's schema asks for with x-mcp-header, and,
// on 2026-07-28, that tools whose marks break the rules are left out of
// the host's listing and not called, and that a call made before any
// listing lists the tools first, on requests of the client's own.
func TestStreamableClientParamHeaders(t *testing.T) {
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":"p"}`
	sqlCall := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + meta + `,"name":"sql","arguments":{"region":"us-west1","limit":42,"dry":false,"ratio":0.5,"greeting":"Hello, 世界","note":"","opts":{"tenant":"acme"},"list":[{"x":"y"}]}}}`
	tests := []struct {
		name  string
		write []string // what the host writes, in order
		// the tools the host's listing shows, the requests the server
		// saw, and the answer to the last write
		shown, posts []string
		answer       string
	}{
		{"listed by the host first", []string{
			`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`,
			`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{` + meta + `,"cursor":"p2"}}`, sqlCall},
			[]string{"plain", "sql"}, []string{"tools/list 1", "tools/list 3 p2", "tools/call sql"}, `"result"`},
		{"called before any listing", []string{sqlCall},
			nil, []string{`tools/list "elicitdesk-link-tools-1" {"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`, `tools/list "elicitdesk-link-tools-2" p2`, "tools/call sql"}, `"result"`},
		{"a tool left out is not called", []string{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + meta + `,"name":"twice","arguments":{"a":"x"}}}`},
			nil, []string{`tools/list "elicitdesk-link-tools-1" {"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`}, `"code":-32602`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer leaktest.Check(t)()
			var mu sync.Mutex
			var posts []string
			calls := make(chan http.Header, 1)
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				m, _ := Parse(b)
				cursor := gjson.GetBytes(b, "params.cursor").String()
				seen := m.Method + " " + gjson.GetBytes(b, "params.name").String()
				if m.Method == "tools/list" {
					seen = strings.TrimSpace("tools/list " + string(m.ID) + " " + cursor)
					if strings.HasPrefix(string(m.ID), `"elicitdesk`) && cursor == "" {
						seen += " " + gjson.GetBytes(b, "params._meta").Raw
					}
				}
				mu.Lock()
				posts = append(posts, seen)
				mu.Unlock()
				w.Header().Set("Content-Type", "text/event-stream")
				switch m.Method {
				case "tools/list":
					fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n")
					fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":"+string(m.ID)+",\"result\":"+strings.ReplaceAll(paramTools[cursor], "\n", "")+"}\n\n")
				case "tools/call":
					calls <- r.Header.Clone()
					fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":"+string(m.ID)+",\"result\":{}}\n\n")
				}
			}))
			defer ts.Close()
			hc := testHTTP()
			defer hc.CloseIdleConnections()
			c := NewStreamableClient(ts.URL, nil, hc)
			defer c.Close()
			ctx := context.Background()
			var last []Message
			var shown []string
			for _, raw := range tt.write {
				m, err := Parse([]byte(raw))
				if err != nil {
					t.Fatal(err)
				}
				if err := c.Write(ctx, m); err != nil {
					t.Fatal(err)
				}
				last = readUntil(t, c, string(m.ID))
				gjson.GetBytes(last[len(last)-1].Raw, "result.tools.#.name").ForEach(func(_, v gjson.Result) bool {
					shown = append(shown, v.String())
					return true
				})
			}
			if !slices.Equal(shown, tt.shown) {
				t.Errorf("the host's listings show %q, want %q", shown, tt.shown)
			}
			if got := string(last[len(last)-1].Raw); !strings.Contains(got, tt.answer) {
				t.Errorf("the host got %s, want %s in it", got, tt.answer)
			}
			for _, m := range last {
				if m.IsResponse() && strings.Contains(string(m.ID), "elicitdesk") {
					t.Errorf("the host got the answer to the client's own listing: %s", m.Raw)
				}
			}
			mu.Lock()
			if !slices.Equal(posts, tt.posts) {
				t.Errorf("the server saw %q, want %q", posts, tt.posts)
			}
			mu.Unlock()
			if tt.answer != `"result"` {
				return
			}
			h := <-calls
			want := map[string]string{
				"Mcp-Param-Region": "us-west1", "Mcp-Param-Limit": "42", "Mcp-Param-Dry": "false",
				"Mcp-Param-Greeting": "=?base64?SGVsbG8sIOS4lueVjA==?=", "Mcp-Param-Tenant": "acme",
				"Mcp-Param-Ratio": "", "Mcp-Param-X": "", "Mcp-Name": "sql",
			}
			for k, v := range want {
				if got := h.Get(k); got != v {
					t.Errorf("%s: %q, want %q", k, got, v)
				}
			}
			if got := h.Values("Mcp-Param-Note"); !slices.Equal(got, []string{""}) {
				t.Errorf("Mcp-Param-Note: %q, want an empty value for an empty argument", got)
			}
		})
	}
}
