package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/deskclient"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers/bridge"
)

// floodSchema is a requestedSchema of about size bytes: one property
// whose description fills it.
func floodSchema(size int) json.RawMessage {
	raw, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
		"answer": map[string]any{"type": "string", "description": strings.Repeat("d", size)},
	}})
	return raw
}

// floodQuestion is elicitation i of a flood, from session i's server,
// with schema.
func floodQuestion(i int, schema json.RawMessage) endpoint.Question {
	params, _ := json.Marshal(map[string]any{"message": fmt.Sprintf("Question %d", i), "requestedSchema": schema})
	return endpoint.Question{
		Session: endpoint.Bridged{ID: fmt.Sprint("s", i), Server: "flood", Target: "flood-server", Host: endpoint.Peer{Name: "host"}},
		Params:  params,
	}
}

// floodEnv makes the test binary, re-run as a child, serve the flood MCP
// server over stdio: its tool "flood" sends arguments n elicitations with
// schemas of about size bytes at once, and says how many were answered
// cancel.
const floodEnv = "ELICITDESK_TEST_FLOOD_SERVER"

func serveFlood() int {
	srv := server.NewMCPServer("flood", "1.0",
		server.WithToolCapabilities(false),
		//lint:ignore SA1019 it asks through elicitation/create, as a 2025 server does
		server.WithLegacyServerInitiatedRequests(),
	)
	srv.AddTool(mcp.NewTool("flood", mcp.WithNumber("n"), mcp.WithNumber("size")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n, schema := req.GetInt("n", 1), floodSchema(req.GetInt("size", 100))
			var wg sync.WaitGroup
			var mu sync.Mutex
			answers := map[string]int{}
			for i := range n {
				wg.Go(func() {
					res, err := srv.RequestElicitation(ctx, mcp.ElicitationRequest{
						Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
						Params:  mcp.ElicitationParams{Mode: mcp.ElicitationModeForm, Message: fmt.Sprintf("Question %d", i), RequestedSchema: schema},
					})
					action := "error"
					if err == nil {
						action = string(res.Action)
					}
					mu.Lock()
					answers[action]++
					mu.Unlock()
				})
			}
			wg.Wait()
			out, _ := json.Marshal(answers)
			return mcp.NewToolResultText(string(out)), nil
		})
	if err := server.NewStdioServer(srv).Listen(context.Background(), os.Stdin, os.Stdout); err != nil {
		return 1
	}
	return 0
}

// lockedBuffer is a log destination several goroutines write.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// historyFacts are what a test reads of a history file: its entries, the
// newest one's message, the space they take, and the files beside it.
type historyFacts struct {
	entries   int
	newest    string
	used      int64
	fileBytes int64
	dbFiles   []string // every *.db in the directory
}

func readHistory(t *testing.T, path string) historyFacts {
	t.Helper()
	var f historyFacts
	f.dbFiles, _ = filepath.Glob(filepath.Join(filepath.Dir(path), "*.db"))
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow(`SELECT count(*), ifnull((SELECT message FROM entries ORDER BY id DESC LIMIT 1), '') FROM entries`).Scan(&f.entries, &f.newest); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT (p.page_count - f.freelist_count) * s.page_size
		FROM pragma_page_count() p, pragma_freelist_count() f, pragma_page_size() s`).Scan(&f.used); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f.fileBytes = info.Size()
	return f
}

// TestThousandUnshown has 1000 elicitations with schemas of 64 KB, that
// no window could show and no host could take, reach the bridge's log at
// once, as a server's flood does. The history must stay one file,
// history.db, holding all 1000 under its cap: once, each entry opened a
// store of its own, took a busy file for one another program held and
// started a file beside it (574 of them), and no store checked the cap.
// (Schemas of 250 KB, 250 MB in all, cost SQLite under -race 90 s of CPU
// for the same check.)
func TestThousandUnshown(t *testing.T) {
	t.Parallel()
	const n = 1000
	path := history.DefaultPath(t.TempDir())
	var logs lockedBuffer
	l := deskclient.NewUnshownLog(path, nil, slog.New(slog.NewTextHandler(&logs, nil)))
	schema := floodSchema(64_000)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			l.Record(endpoint.Unshown{Question: floodQuestion(i, schema), Reason: bridge.ErrNoWindow.Error(), At: time.Now()})
		})
	}
	wg.Wait()
	l.Close(time.Minute)
	took := time.Since(start)

	f := readHistory(t, path)
	if len(f.dbFiles) != 1 || f.dbFiles[0] != path {
		t.Errorf("history files %v, want only %s", f.dbFiles, path)
	}
	_, dropped := l.Counts()
	if f.entries != n || dropped != 0 {
		t.Errorf("%d entries kept, %d dropped; want all %d kept\n%s", f.entries, dropped, n, logs.String())
	}
	if f.used > history.DefaultMaxBytes || f.fileBytes > history.DefaultMaxBytes {
		t.Errorf("%d bytes in use in a file of %d, over the cap of %d", f.used, f.fileBytes, history.DefaultMaxBytes)
	}
	t.Logf("%d entries in %s: %d files, %d entries, %.1f MiB in use, a file of %.1f MiB", n, took.Round(time.Millisecond),
		len(f.dbFiles), f.entries, float64(f.used)/(1<<20), float64(f.fileBytes)/(1<<20))
}

// await fails t unless ch receives within a minute, and returns what it
// received.
func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(time.Minute):
		t.Fatalf("%s did not happen", what)
		panic("unreachable")
	}
}

// TestUnshownEntry: History tells an elicitation the bridge answered
// cancel from one it gave the host, whose answer is not the person's.
func TestUnshownEntry(t *testing.T) {
	at := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		toHost  bool
		outcome history.Outcome
		reason  string
	}{
		{false, history.NoWindow, "answered cancel without asking: no window can be shown"},
		{true, history.ToHost, "given to the host, which answered it its own way: no window can be shown"},
	} {
		e := core.UnshownEntry(endpoint.Unshown{Question: floodQuestion(1, floodSchema(10)), Reason: bridge.ErrNoWindow.Error(), At: at, ToHost: tt.toHost})
		if e.Outcome != tt.outcome || e.Reason != tt.reason || e.Message != "Question 1" || !e.Answered.Equal(at) || e.Server.Host.Name != "host" {
			t.Errorf("toHost %v: %+v", tt.toHost, e)
		}
	}
}
