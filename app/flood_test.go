package app

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// The flood: a hostile server sends floodRequests of about floodSize
// bytes each, every other one holding 1e400. The first are refused by the
// limits, the others as unreadable. Under the race detector, which makes
// reading 500 MB take minutes, the test sends a tenth; the benchmark sends
// them all.
const (
	floodRequests = 500
	floodSize     = 1 << 20
)

// floodHeapMargin is how far above its idle figure the heap may stay once
// a flood is answered and recorded.
const floodHeapMargin = 32 << 20

// floodDBBound is the most the history may take after a flood of n
// requests: each refusal keeps at most a refusal's prefixes, counted twice
// for the full-text index and the write-ahead log, and a megabyte for the
// rest.
func floodDBBound(n int) int64 {
	return int64(n)*2*(history.MaxRefusedMessageBytes+history.MaxRefusedSchemaBytes) + 1<<20
}

// floodFigures are what a flood cost.
type floodFigures struct {
	idle, peak, after uint64 // heap in use, bytes
	db                int64  // history.db and its log, bytes
}

// flood sends n requests to a started Desk and waits until every one is
// answered and recorded.
func flood(tb testing.TB, h *harness, n int) floodFigures {
	toServerR, toServerW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	tb.Cleanup(func() { toServerR.Close(); toClientW.Close() })
	answered := make(chan struct{})
	go serveFlood(toServerR, toClientW, n, answered)

	h.core.Router().SetLimits("flood", servers.Limits{Waiting: -1, PerMinute: -1}) // refuse everything
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := servers.DialPipe(ctx, config.Server{Name: "flood", Command: "flood", Transport: config.TransportStdio},
		toClientR, toServerW, h.core.Router(), slog.New(slog.DiscardHandler))
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()

	var f floodFigures
	f.idle = heapAfterGC()
	var peak atomic.Uint64
	sampled := make(chan struct{})
	go func() { // the peak, sampled until every request is answered
		defer close(sampled)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak.Store(max(peak.Load(), m.HeapAlloc))
			select {
			case <-answered:
				return
			case <-tick.C:
			}
		}
	}()
	message := strings.Repeat("x", floodSize)
	for i := range n {
		extra := ""
		if i%2 == 1 {
			extra = `,"n":1e400`
		}
		io.WriteString(toClientW, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i)+`,"method":"elicitation/create","params":{"message":"`+message+`"`+extra+
			`,"requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}`+"\n")
	}
	<-sampled
	h.core.Flush()
	f.peak, f.after = peak.Load(), heapAfterGC()
	for _, name := range []string{"history.db", "history.db-wal"} {
		if info, err := os.Stat(filepath.Join(h.dir, name)); err == nil {
			f.db += info.Size()
		}
	}
	return f
}

// serveFlood is the hostile server's side: it answers our handshake and
// closes answered when every flood request has its answer.
func serveFlood(r io.Reader, w io.Writer, requests int, answered chan<- struct{}) {
	in := bufio.NewReader(r)
	n := 0
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(line, &m)
		switch {
		case m.Method == "initialize":
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"flood","version":"1"}}}`+"\n")
		case m.Method != "" && m.ID != nil:
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{}}`+"\n")
		case m.Method == "":
			if n++; n == requests {
				close(answered)
			}
		}
	}
}

func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestFloodIsBounded floods the app: once every request is answered and
// recorded the heap is back within floodHeapMargin of idle and the
// history within floodDBBound, whatever the flood weighed.
func TestFloodIsBounded(t *testing.T) {
	n := floodRequests
	if raceEnabled {
		n /= 10
	}
	h := start(t, `{"mcpServers":{}}`)
	f := flood(t, h, n)
	t.Logf("%d requests of %d MB: heap idle %d MB, peak %d MB, after %d MB; history %d KB", n, floodSize>>20, f.idle>>20, f.peak>>20, f.after>>20, f.db>>10)
	if f.after > f.idle+floodHeapMargin {
		t.Errorf("heap %d MB after the flood, idle %d MB: more than %d MB kept", f.after>>20, f.idle>>20, floodHeapMargin>>20)
	}
	if bound := floodDBBound(n); f.db > bound {
		t.Errorf("history of %d bytes, over %d", f.db, bound)
	}
	if es := h.entries(); len(es) == 0 {
		t.Error("the refusals were not recorded")
	}
}

// BenchmarkFlood reports what one flood costs.
func BenchmarkFlood(b *testing.B) {
	for b.Loop() {
		h := start(b, `{"mcpServers":{}}`)
		f := flood(b, h, floodRequests)
		b.ReportMetric(float64(f.idle)/(1<<20), "idle-heap-MB")
		b.ReportMetric(float64(f.peak)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(f.after)/(1<<20), "after-heap-MB")
		b.ReportMetric(float64(f.db)/(1<<20), "history-MB")
	}
}
