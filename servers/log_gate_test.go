package servers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// TestCloseEndsLogging is the regression for a data race on the CLI's
// stderr: over Streamable HTTP before 2026-07-28, mcp-go's GET listener
// outlives Close and logged that the server offers no stream into the
// connection's log after the command had returned and its stderr was
// read. Here the log writes to a bytes.Buffer, which has no lock: the race
// detector sees any write not ordered before Close's return. Run with
// -race -count=20.
func TestCloseEndsLogging(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet: // no standalone stream: mcp-go logs an error
			http.Error(w, "no stream", http.StatusMethodNotAllowed)
			return
		case http.MethodDelete:
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.NewDecoder(r.Body).Decode(&m) != nil {
			http.Error(w, "JSON-RPC only", http.StatusBadRequest)
			return
		}
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Mcp-Session-Id", "s1")
		result := `{}`
		if m.Method == "initialize" {
			result = `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"legacy","version":"1"}}`
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
	}))
	defer srv.Close()
	for range 10 {
		var logged bytes.Buffer
		log := slog.New(slog.NewTextHandler(&logged, nil))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		c, err := Dial(ctx, config.Server{Name: "legacy", URL: srv.URL, Transport: config.TransportHTTP, ProtocolVersion: "2025-11-25"}, NewRouter(DefaultLimits, quietLog()), log)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
		c.log.Error("after Close")
		if s := logged.String(); strings.Contains(s, "after Close") {
			t.Fatalf("logged after Close:\n%s", s)
		}
	}
}
