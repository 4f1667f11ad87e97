package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// TestHTTPAnswersUnreadable is the Streamable HTTP side of the regression
// for requests that got no answer: each request taken off an event stream
// is answered with the AnswerFunc's -32602, whatever its params hold.
func TestHTTPAnswersUnreadable(t *testing.T) {
	posted := make(chan []byte, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.WriteHeader(http.StatusAccepted)
		posted <- body
	}))
	defer srv.Close()
	answer := func(ctx context.Context, raw json.RawMessage) (any, error) {
		if err := CheckParams(raw); err != nil {
			return nil, err
		}
		return map[string]string{"action": "cancel"}, nil
	}
	tr, err := NewStreamableHTTP(srv.URL, nil, nil, answer, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	w := tr.(*httpWire)
	defer w.Close()
	tests := []struct{ name, params, reason string }{
		{"1e400", `{"message":"m","n":1e400}`, "out of range"},
		{"100,000 deep", `{"x":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`, "levels deep"},
		{"10 MB", `{"message":"` + strings.Repeat("x", 10<<20) + `"}`, "MB"},
		{"invalid UTF-8", "{\"message\":\"\xff\"}", "UTF-8"},
		{"normal", `{"message":"m"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := []byte(`{"jsonrpc":"2.0","id":"x","method":"elicitation/create","params":` + tt.params + `}`)
			if !isRequest(raw) {
				t.Fatal("not taken off the stream: mcp-go would drop it")
			}
			w.serve(t.Context(), raw, len(raw))
			var resp struct {
				ID     string          `json:"id"`
				Error  *RPCError       `json:"error"`
				Result json.RawMessage `json:"result"`
			}
			json.Unmarshal(<-posted, &resp)
			switch {
			case resp.ID != "x":
				t.Fatalf("answer for %q", resp.ID)
			case tt.reason == "" && resp.Result == nil:
				t.Fatalf("error %v", resp.Error)
			case tt.reason != "" && (resp.Error == nil || resp.Error.Code != CodeInvalidParams || !strings.Contains(resp.Error.Message, tt.reason)):
				t.Fatalf("want -32602 saying %q, got %v", tt.reason, resp.Error)
			}
		})
	}
}

// TestBoundedBody checks that a body passes whole up to link.MaxMessage
// bytes, and that a longer one ends in ErrAnswerTooLarge once the limit
// is passed, without being read further.
func TestBoundedBody(t *testing.T) {
	for _, size := range []int{0, link.MaxMessage, link.MaxMessage + 1, 100 << 20} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			src := &countingReader{r: io.LimitReader(zeros{}, int64(size))}
			got, err := io.ReadAll(&boundedBody{ReadCloser: io.NopCloser(src), left: link.MaxMessage})
			switch {
			case size <= link.MaxMessage && (err != nil || len(got) != size):
				t.Errorf("read %d of %d bytes: %v", len(got), size, err)
			case size > link.MaxMessage && (!errors.Is(err, ErrAnswerTooLarge) || len(got) != link.MaxMessage):
				t.Errorf("read %d bytes: %v", len(got), err)
			}
			if src.n > link.MaxMessage+1 {
				t.Errorf("read %d bytes from the server", src.n)
			}
		})
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
