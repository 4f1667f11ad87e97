package servers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// bigSize is the length of the one string in an oversized message: far
// over link.MaxMessage, and streamed, never held by the test's servers.
const bigSize = 100 << 20

// heapMargin is how far the heap may grow above its baseline while an
// oversized message is read: about link.MaxMessage a few times over.
const heapMargin = 64 << 20

// TestOversizedMessagesBounded is the regression test for a server that
// pushed the app past 3 GB with one long line: on every transport a
// message of 100 MB is read without holding it. An answer that large ends
// its call at once with the size error, a server's message that large is
// dropped, and the connection goes on working.
func TestOversizedMessagesBounded(t *testing.T) {
	tests := []struct {
		name string
		dial func(t *testing.T) (*Conn, func(ctx context.Context) error)
		want string // in the error act returns; "" for none
	}{
		{"stdio, id after the result", dialBigStdio, "larger than 8 MiB"},
		{"Streamable HTTP, event stream", bigStreamable(sseAnswer), "larger than 8 MiB"},
		{"Streamable HTTP, JSON body", bigStreamable(jsonAnswer), "larger than 8 MiB"},
		{"Streamable HTTP, GET stream", dialBigGETStream, ""},
		{"HTTP+SSE", dialBigSSE, "larger than 8 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, act := tt.dial(t)
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute) // a failsafe only
			defer cancel()
			runtime.GC()
			base := heapInUse()
			stop := watchHeap()
			err := act(ctx)
			peak := stop()
			t.Logf("ended with %v; the heap peaked %.1f MiB above its baseline of %.1f MiB", err, float64(peak-min(peak, base))/(1<<20), float64(base)/(1<<20))
			switch {
			case ctx.Err() != nil:
				t.Fatalf("no end before the deadline: %v", err)
			case tt.want == "" && err != nil:
				t.Fatal(err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("want an error saying %q, got %v", tt.want, err)
			}
			if peak > base+heapMargin {
				t.Errorf("the heap grew by %d MiB; at most %d", (peak-base)>>20, heapMargin>>20)
			}
			if err := c.Ping(ctx); err != nil {
				t.Fatalf("the connection broke: %v", err)
			}
		})
	}
}

// heapInUse is the heap's live and not yet swept objects, in bytes.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// watchHeap samples the heap until the function it returns is called,
// which returns its highest figure.
func watchHeap() func() uint64 {
	done, peak := make(chan struct{}), make(chan uint64)
	go func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		high := heapInUse()
		for {
			select {
			case <-done:
				peak <- high
				return
			case <-tick.C:
				high = max(high, heapInUse())
			}
		}
	}()
	return func() uint64 { close(done); return <-peak }
}

// writeBig writes before, bigSize bytes of x, then after, a piece at a time.
func writeBig(w io.Writer, before, after string) error {
	if _, err := io.WriteString(w, before); err != nil {
		return err
	}
	piece := bytes.Repeat([]byte("x"), 64<<10)
	for n := 0; n < bigSize; n += len(piece) {
		if _, err := w.Write(piece); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, after)
	return err
}

// initResult answers initialize like a 2025-06-18 server.
func initResult(id json.RawMessage) string {
	return `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"big","version":"1"}}}`
}

// pong is the answer to a ping.
func pong(id json.RawMessage) string { return `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{}}` }

// bigAnswerStart begins an answer with a bigSize string, which
// bigAnswerEnd ends.
func bigAnswerStart(id json.RawMessage) string {
	return `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"text":"`
}

const bigAnswerEnd = `"}}`

// legacy is a server pinned to 2025-06-18, which has no discovery.
func legacy(name string, transport config.Transport, url string) config.Server {
	return config.Server{Name: name, URL: url, Command: name, Transport: transport, ProtocolVersion: "2025-06-18"}
}

// dialBigStdio connects to a stdio server that answers the first ping
// with a 100 MB line whose id comes last, so that the whole line must be
// read to know which call it answers.
func dialBigStdio(t *testing.T) (*Conn, func(context.Context) error) {
	f := newFakeServer(t)
	go func() {
		pings := 0
		for {
			line, err := f.in.ReadBytes('\n')
			if err != nil {
				return
			}
			var m message
			json.Unmarshal(line, &m)
			switch {
			case m.Method == "initialize":
				f.send(initResult(m.ID))
			case m.Method == "ping" && pings == 0:
				pings++
				writeBig(f.out, `{"jsonrpc":"2.0","result":{"text":"`, `"},"id":`+string(m.ID)+"}\n")
			case m.Method == "ping":
				f.send(pong(m.ID))
			}
		}
	}()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	c, err := DialPipe(ctx, legacy("big", config.TransportStdio, ""), f.client.r, f.client.w, NewRouter(DefaultLimits, quietLog()), quietLog())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, c.Ping
}

// sseAnswer and jsonAnswer answer a POST with a 100 MB message, in an
// event stream or as the body.
func sseAnswer(w http.ResponseWriter, id json.RawMessage) {
	w.Header().Set("Content-Type", "text/event-stream")
	writeBig(w, "event: message\ndata: "+bigAnswerStart(id), bigAnswerEnd+"\n\n")
}

func jsonAnswer(w http.ResponseWriter, id json.RawMessage) {
	w.Header().Set("Content-Type", "application/json")
	writeBig(w, bigAnswerStart(id), bigAnswerEnd)
}

// bigStreamable connects to a Streamable HTTP server that answers the
// first ping with big and offers no GET stream.
func bigStreamable(big func(http.ResponseWriter, json.RawMessage)) func(t *testing.T) (*Conn, func(context.Context) error) {
	return func(t *testing.T) (*Conn, func(context.Context) error) {
		var pings atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			var m message
			json.NewDecoder(r.Body).Decode(&m)
			switch {
			case m.Method == "initialize":
				writeJSON(w, initResult(m.ID))
			case m.Method == "ping" && pings.Add(1) == 1:
				big(w, m.ID)
			case m.Method == "ping":
				writeJSON(w, pong(m.ID))
			default:
				w.WriteHeader(http.StatusAccepted)
			}
		}))
		t.Cleanup(srv.Close)
		c := dialTest(t, legacy("big", config.TransportHTTP, srv.URL))
		return c, c.Ping
	}
}

func writeJSON(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, msg)
}

// dialBigGETStream connects to a Streamable HTTP server whose GET stream,
// once act starts, carries a 100 MB notification and then a ping; act
// ends when the ping is answered, which only a stream that went on can do.
func dialBigGETStream(t *testing.T) (*Conn, func(context.Context) error) {
	start, answered := make(chan struct{}), make(chan json.RawMessage, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "text/event-stream")
			w.(http.Flusher).Flush()
			select {
			case <-start:
			case <-r.Context().Done():
				return
			}
			writeBig(w, `data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"`, "\"}}\n\n")
			io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":\"after\",\"method\":\"ping\"}\n\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		var m message
		json.NewDecoder(r.Body).Decode(&m)
		switch {
		case m.Method == "initialize":
			writeJSON(w, initResult(m.ID))
		case m.Method == "ping":
			writeJSON(w, pong(m.ID))
		case m.Method == "" && m.ID != nil:
			w.WriteHeader(http.StatusAccepted)
			answered <- m.ID
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	t.Cleanup(srv.Close)
	c := dialTest(t, legacy("big", config.TransportHTTP, srv.URL))
	return c, func(ctx context.Context) error {
		close(start)
		select {
		case id := <-answered:
			if string(id) != `"after"` {
				return fmt.Errorf("answered %s", id)
			}
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// dialBigSSE connects to an HTTP+SSE server whose event stream carries
// the answer to the first ping: a 100 MB event.
func dialBigSSE(t *testing.T) (*Conn, func(context.Context) error) {
	var pings atomic.Int32
	srv := legacySSE(t, func(m message, send func(func(io.Writer))) {
		switch {
		case m.Method == "initialize":
			send(sseEvent(initResult(m.ID)))
		case m.Method == "ping" && pings.Add(1) == 1:
			send(func(w io.Writer) { writeBig(w, "event: message\ndata: "+bigAnswerStart(m.ID), bigAnswerEnd+"\n\n") })
		case m.Method == "ping":
			send(sseEvent(pong(m.ID)))
		}
	})
	c := dialTest(t, legacy("big", config.TransportSSE, srv.URL+"/sse"))
	return c, c.Ping
}

// dialTest dials cfg for the length of the test.
func dialTest(t *testing.T, cfg config.Server) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	c, err := Dial(ctx, cfg, NewRouter(DefaultLimits, quietLog()), quietLog())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
