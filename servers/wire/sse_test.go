package wire

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// TestSSEFilterBoundsLongEvents is the regression test for the event
// reader that read an oversized event whole before refusing it: a 10 MB
// event is never held past MaxMessage (plus a read's worth), a request is
// handed over as its head and size to be refused, a long result streams
// on whole, and the next event still arrives.
func TestSSEFilterBoundsLongEvents(t *testing.T) {
	const margin = 64 << 10
	big := strings.Repeat("x", 10<<20)
	next := "id: 9\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n\n"
	tests := []struct {
		name, event string
		request     bool // handed over, not passed on
	}{
		{"elicitation", "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"big\",\"method\":\"elicitation/create\",\"params\":{\"message\":\"" + big + "\"}}\n\n", true},
		{"ping over many data lines", "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"big\",\"method\":\"ping\",\"params\":{\"x\":\"\n" + strings.Repeat("data: "+strings.Repeat("x", 1000)+"\n", 10_000) + "data: \"}}\n\n", true},
		{"result", "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\"" + big + "\"}}\n\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []json.RawMessage
			var size int
			src := io.NopCloser(strings.NewReader(tt.event + next))
			f := &sseFilter{src: src, br: bufio.NewReader(src), onRequest: func(raw json.RawMessage, n int) {
				got, size = append(got, raw), n
			}}
			var out strings.Builder
			held := 0
			p := make([]byte, 32<<10)
			for {
				n, err := f.Read(p)
				out.Write(p[:n])
				held = max(held, len(f.event)+f.out.Len()+len(f.head)+len(f.cursor))
				if err != nil {
					break
				}
			}
			if held > MaxMessage+margin {
				t.Errorf("held %d bytes of the event; at most %d", held, MaxMessage+margin)
			}
			if !strings.HasSuffix(out.String(), next) {
				t.Error("the next event did not arrive")
			}
			if !tt.request {
				if len(got) != 0 || out.String() != tt.event+next {
					t.Fatalf("passed %d of %d bytes, took %d requests", out.Len(), len(tt.event+next), len(got))
				}
				return
			}
			if len(got) != 1 || out.String() != "id: 1\n\n"+next {
				t.Fatalf("took %d requests, passed %q", len(got), out.String()[:min(out.Len(), 100)])
			}
			id, ok := readHead(got[0]).ID()
			if !ok || id.String() != "string:big" || len(got[0]) > MaxMessage || size != len(tt.event) {
				t.Errorf("handed over id %v (%v), %d bytes kept of %d", id, ok, len(got[0]), size)
			}
		})
	}
}

// TestSSEFilterKeepsCursor checks that an event taken off the stream
// leaves its id and retry lines behind, as a blank event: mcp-go resumes a
// stream from the last id, after the last retry, and a request that was
// the last event must not make it resume from an older one, or sooner
// than the server asked. Anything else passes unchanged.
func TestSSEFilterKeepsCursor(t *testing.T) {
	request := `{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"m"}}`
	long := `{"jsonrpc":"2.0","id":8,"method":"elicitation/create","params":{"message":"` + strings.Repeat("x", MaxMessage) + `"}}`
	tests := []struct{ name, stream, want string }{
		{"request with id and retry", "id: e1\nretry: 500\ndata: " + request + "\n\n", "id: e1\nretry: 500\n\n"},
		{"request with retry only", "retry: 500\nevent: message\ndata: " + request + "\n\n", "retry: 500\n\n"},
		{"request with neither", ": comment\ndata: " + request + "\n\n", "\n"},
		{"request too long to keep", "id: e2\nretry: 250\ndata: " + long + "\n\n", "id: e2\nretry: 250\n\n"},
		{"priming event", "id: e0\nretry: 500\ndata: \n\n", "id: e0\nretry: 500\ndata: \n\n"},
		{"response", "id: e3\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n", "id: e3\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := io.NopCloser(strings.NewReader(tt.stream))
			f := &sseFilter{src: src, br: bufio.NewReader(src), onRequest: func(json.RawMessage, int) {}}
			out, _ := io.ReadAll(f)
			if string(out) != tt.want {
				t.Errorf("passed on %q, want %q", out, tt.want)
			}
		})
	}
}
