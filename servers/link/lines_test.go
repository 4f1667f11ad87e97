package link

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestLinesRead reads each kind of line a peer may send.
func TestLinesRead(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":5,"method":"x","params":"` + strings.Repeat("a", MaxMessage) + `"}`
	tests := []struct {
		name, in string
		want     []string // the Raw of each message read, or "bad: " and the start of its error
	}{
		{"one per line", "{\"id\":1,\"method\":\"a\"}\n{\"id\":1,\"result\":{}}\n", []string{`{"id":1,"method":"a"}`, `{"id":1,"result":{}}`}},
		{"CRLF and blank lines", "\r\n{\"method\":\"n\"}\r\n\n", []string{`{"method":"n"}`}},
		{"last line without newline", `{"method":"n"}`, []string{`{"method":"n"}`}},
		{"garbage, then on", "garbage\n{\"method\":\"n\"}\n", []string{"bad: not a JSON-RPC message", `{"method":"n"}`}},
		{"no method, result or error", `{"id":1}` + "\n", []string{"bad: not a JSON-RPC message: no method"}},
		{"over the limit, then on", big + "\n{\"method\":\"n\"}\n", []string{"bad: message larger than 8 MiB", `{"method":"n"}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewLines(strings.NewReader(tt.in), nopWriter{})
			var got []string
			for {
				m, err := l.Read()
				var bad *BadMessage
				switch {
				case errors.Is(err, io.EOF):
					if strings.Join(got, "|") != strings.Join(tt.want, "|") {
						t.Errorf("read %q, want %q", got, tt.want)
					}
					return
				case errors.As(err, &bad):
					if len(bad.Head) > headSize {
						t.Errorf("a bad message kept %d bytes", len(bad.Head))
					}
					msg := bad.Err.Error()
					for _, w := range tt.want {
						if after, ok := strings.CutPrefix(w, "bad: "); ok && strings.HasPrefix(msg, after) {
							msg = after
						}
					}
					got = append(got, "bad: "+msg)
				case err != nil:
					t.Fatal(err)
				default:
					got = append(got, string(m.Raw))
				}
			}
		})
	}
}

// TestLinesHeadOfLargeMessage keeps the start of an oversized message,
// and its id and method wherever they stand in it, so that a request can
// still be answered and a call whose answer it is can end.
func TestLinesHeadOfLargeMessage(t *testing.T) {
	params := `"params":"` + strings.Repeat("a", MaxMessage) + `"`
	tests := []struct{ name, msg, id, method string }{
		{"id first", `{"jsonrpc":"2.0","id":5,"method":"x",` + params + `}`, "5", "x"},
		{"id last", `{"jsonrpc":"2.0","method":"x",` + params + `, "id" : "late"}`, `"late"`, "x"},
		{"answer, id last", `{"jsonrpc":"2.0","result":{"t":"` + strings.Repeat("a", MaxMessage) + `"},"id":9}`, "9", ""},
		{"notification", `{"jsonrpc":"2.0","method":"n",` + params + `}`, "", "n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewLines(strings.NewReader(tt.msg+"\n"), nopWriter{}).Read()
			var bad *BadMessage
			if !errors.As(err, &bad) || !strings.HasPrefix(string(bad.Head), `{"jsonrpc":"2.0",`) || bad.Size != len(tt.msg) || len(bad.Head) > headSize {
				t.Fatalf("got %v, want the head of a %d-byte message", err, len(tt.msg))
			}
			if string(bad.ID) != tt.id || bad.Method != tt.method {
				t.Errorf("id %s method %q, want %s %q", bad.ID, bad.Method, tt.id, tt.method)
			}
		})
	}
}

// TestLinesWriteNullID writes each message as sent, but for an error a
// server left with a null id and its HTTP stream tied to a request: a
// stdio peer matches answers by id alone, so it gets the request's.
func TestLinesWriteNullID(t *testing.T) {
	tests := []struct {
		name, raw, related, want string
	}{
		{"null id tied to a request", `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Invalid or missing session ID"}}`, `"a"`,
			`{"jsonrpc":"2.0","id":"a","error":{"code":-32000,"message":"Invalid or missing session ID"}}`},
		{"no id, tied to a request", `{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}}`, `7`,
			`{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"},"id":7}`},
		{"null id, tied to nothing", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`, ``,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`},
		{"an id of its own", `{"jsonrpc":"2.0","id":3,"result":{}}`, `3`, `{"jsonrpc":"2.0","id":3,"result":{}}`},
		{"a notification on a request's stream", `{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`, `3`,
			`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse([]byte(tt.raw))
			if err != nil {
				t.Fatal(err)
			}
			if tt.related != "" {
				m.Related = json.RawMessage(tt.related)
			}
			var out bufferCloser
			if err := NewLines(strings.NewReader(""), &out).Write(context.Background(), m); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != tt.want+"\n" {
				t.Errorf("wrote %s, want %s", got, tt.want)
			}
		})
	}
}

// bufferCloser is a bytes.Buffer that can be closed.
type bufferCloser struct{ bytes.Buffer }

func (*bufferCloser) Close() error { return nil }
