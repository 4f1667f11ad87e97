package wire

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// TestSSEFilterBoundsLongEvents is the regression test for the event
// reader that read an oversized event whole: a 10 MB event is never held
// past link.MaxMessage (plus a read's worth). A request is handed over as
// a stub and its size, to be refused; an answer becomes an error answer
// for its id, wherever the id is; anything else passes on as its id line
// only; the next event arrives either way.
func TestSSEFilterBoundsLongEvents(t *testing.T) {
	const margin = 64 << 10
	big := strings.Repeat("x", 10<<20)
	refusal := func(id string) string {
		return `data: {"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32603,"message":"` + ErrAnswerTooLarge.Error() + `"}}` + "\n\n"
	}
	next := "id: 9\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n\n"
	tests := []struct {
		name, event, want string
		request           bool // handed over
	}{
		{"elicitation", "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"big\",\"method\":\"elicitation/create\",\"params\":{\"message\":\"" + big + "\"}}\n\n", "id: 1\n\n", true},
		{"ping over many data lines", "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"big\",\"method\":\"ping\",\"params\":{\"x\":\"\n" + strings.Repeat("data: "+strings.Repeat("x", 1000)+"\n", 10_000) + "data: \"}}\n\n", "id: 1\n\n", true},
		{"ping, method last", "data: {\"jsonrpc\":\"2.0\",\"params\":{\"x\":\"" + big + "\"},\"id\":\"big\",\"method\":\"ping\"}\n\n", "\n", true},
		{"result", "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\"" + big + "\"}}\n\n", refusal("1") + "id: 1\n\n", false},
		{"result, id last", "id: 1\nretry: 5\ndata: {\"jsonrpc\":\"2.0\",\"result\":{\"text\":\"" + big + "\"},\"id\":\"z\"}\n\n", refusal(`"z"`) + "id: 1\nretry: 5\n\n", false},
		{"notification", "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"" + big + "\"}}\n\n", "id: 1\n\n", false},
		{"long comment", ": " + big + "\n\n", "\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []json.RawMessage
			var size int
			src := io.NopCloser(strings.NewReader(tt.event + next))
			f := &sseFilter{src: src, br: bufio.NewReader(src), log: slog.New(slog.DiscardHandler), onRequest: func(raw json.RawMessage, n int) {
				got, size = append(got, raw), n
			}}
			var out strings.Builder
			held := 0
			p := make([]byte, 32<<10)
			for {
				n, err := f.Read(p)
				out.Write(p[:n])
				held = max(held, cap(f.event)+f.out.Len()+len(f.lastID)+len(f.retry))
				if err != nil {
					break
				}
			}
			if held > link.MaxMessage+margin {
				t.Errorf("held %d bytes of the event; at most %d", held, link.MaxMessage+margin)
			}
			if want := tt.want + next; out.String() != want {
				t.Errorf("passed on %.300q, want %.300q", out.String(), want)
			}
			if !tt.request {
				if len(got) != 0 {
					t.Errorf("took %d requests", len(got))
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("took %d requests", len(got))
			}
			id, ok := readHead(got[0]).ID()
			if !ok || id.String() != "string:big" || size != len(tt.event) || size <= len(got[0]) {
				t.Errorf("handed over %.100s (id %v, %v) as %d bytes of %d", got[0], id, ok, size, len(tt.event))
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
	long := `{"jsonrpc":"2.0","id":8,"method":"elicitation/create","params":{"message":"` + strings.Repeat("x", link.MaxMessage) + `"}}`
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
			f := &sseFilter{src: src, br: bufio.NewReader(src), log: slog.New(slog.DiscardHandler), onRequest: func(json.RawMessage, int) {}}
			out, _ := io.ReadAll(f)
			if string(out) != tt.want {
				t.Errorf("passed on %q, want %q", out, tt.want)
			}
		})
	}
}
