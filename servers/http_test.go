package servers

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

// demoHTTP serves the demo server over Streamable HTTP on loopback.
func demoHTTP(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(server.NewStreamableHTTPServer(demo.NewServer()))
	t.Cleanup(srv.Close)
	return srv
}

// TestElicitationOverStreamableHTTP asks over Streamable HTTP, where the
// request travels in the tool call's event stream and the answer in a POST
// of our own, for each revision that has server-initiated requests.
func TestElicitationOverStreamableHTTP(t *testing.T) {
	srv := demoHTTP(t)
	for _, version := range []string{"2025-06-18", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			r := NewRouter(DefaultLimits, quietLog())
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c, err := Dial(ctx, ServerConfig{Name: "web", URL: srv.URL, Transport: TransportHTTP, ProtocolVersion: version}, r, quietLog())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			got := call(c, demo.ToolAskEveryField, nil)
			e := next(t, r)
			if keys := firstKeys(t, e.Schema); keys[0] != "name" || keys[1] != "email" {
				t.Fatalf("field order lost: %v", keys)
			}
			s, _ := forms.Parse(e.Schema)
			res, _, _ := forms.NewForm(s).Accept()
			e.Reply(res)
			if out := <-got; out.err != nil || !strings.Contains(out.text(), `"action":"accept"`) {
				t.Fatalf("%q %v", out.text(), out.err)
			}
		})
	}
}

// TestManagerNoticesRemoteServerGone checks that a Streamable HTTP server
// that disappears is reported failed, with the reason, and retried.
func TestManagerNoticesRemoteServerGone(t *testing.T) {
	srv := httptest.NewServer(server.NewStreamableHTTPServer(demo.NewServer()))
	m := NewManager(NewRouter(DefaultLimits, quietLog()), quietLog(), nil)
	m.pingEvery = 20 * time.Millisecond
	m.backoff = Backoff{Min: 10 * time.Millisecond, Max: 20 * time.Millisecond}
	defer m.Close()
	m.Apply(&Config{Servers: []ServerConfig{{Name: "web", URL: srv.URL, Transport: TransportHTTP}}})
	waitFor(t, "ready", func() bool { return statusOf(m, "web").State == StateReady })
	srv.CloseClientConnections()
	srv.Close()
	waitFor(t, "failed", func() bool { return statusOf(m, "web").State == StateFailed })
	if st := statusOf(m, "web"); st.Err == nil {
		t.Errorf("failed without a reason: %+v", st)
	}
}
