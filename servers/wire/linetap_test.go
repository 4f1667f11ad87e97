package wire

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// TestLineTapKeepsNothing checks that every elicitation the tap reads over
// stdio reaches the answer, too large ones as refusals without their
// bytes, and that nothing is held once they are answered.
func TestLineTapKeepsNothing(t *testing.T) {
	toClientR, toClientW := io.Pipe()
	toServerR, toServerW := io.Pipe()
	defer toClientW.Close()
	answer := func(ctx context.Context, raw json.RawMessage) (any, error) {
		if err := Refused(ctx); err != nil {
			return nil, err
		}
		if err := CheckParams(raw); err != nil {
			return nil, err
		}
		return map[string]string{"action": "cancel"}, nil
	}
	w := NewStdio(toClientR, toServerW, answer, func(error) {}, slog.New(slog.DiscardHandler)).(*wire)
	w.SetRequestHandler(func(context.Context, transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) { return nil, nil })
	if err := w.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	lines := []string{
		`{"n":1e400}`,
		`{"x":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`,
		`{"message":"` + strings.Repeat("x", link.MaxMessage) + `"}`,
		`{"message":"fine"}`,
	}
	go func() {
		for i, p := range lines {
			io.WriteString(toClientW, `{"jsonrpc":"2.0","id":`+string(rune('0'+i))+`,"method":"elicitation/create","params":`+p+"}\n")
		}
	}()
	in := bufio.NewReader(toServerR)
	for range lines {
		line, err := in.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		var resp struct {
			Error  *RPCError       `json:"error"`
			Result json.RawMessage `json:"result"`
		}
		json.Unmarshal(line, &resp)
		if resp.Error == nil && resp.Result == nil {
			t.Errorf("answer %s", line)
		}
	}
	if n := w.raw.len(); n != 0 {
		t.Errorf("%d requests still held after their answers", n)
	}
}

// TestLineTapBoundsLongLines is the regression test for the tap that
// passed any line but an elicitation whole, however long: a line over
// link.MaxMessage is never held past it (plus a read's worth). An answer
// becomes an error answer for its id, wherever the id is, a request a stub
// whose refusal the wire keeps, anything else nothing; the next line
// arrives either way, and a line of exactly the limit passes whole.
func TestLineTapBoundsLongLines(t *testing.T) {
	const margin = 64 << 10
	big := strings.Repeat("x", 10<<20)
	refusal := `{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"` + ErrAnswerTooLarge.Error() + `"}}` + "\n"
	next := `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n"
	atLimit := `{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("r", link.MaxMessage-len(`{"jsonrpc":"2.0","id":1,"result":{"text":""}}`)) + `"}}` + "\n"
	tests := []struct {
		name, line, want string
		refused          string // the request whose refusal is kept
	}{
		{"result", `{"jsonrpc":"2.0","id":1,"result":{"text":"` + big + `"}}`, fmt.Sprintf(refusal, "1"), ""},
		{"id after the result", `{"jsonrpc":"2.0","result":{"text":"` + big + `"},"id":"last"}`, fmt.Sprintf(refusal, `"last"`), ""},
		{"error", `{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"` + big + `"}}`, fmt.Sprintf(refusal, "3"), ""},
		{"ping", `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":"` + big + `"}}`, `{"jsonrpc":"2.0","id":4,"method":"ping","params":{}}` + "\n", "ping int64:4"},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + big + `"}}`, "", ""},
		{"no end", `{"jsonrpc":"2.0","id":5,"result":"` + big, fmt.Sprintf(refusal, "5"), ""},
		{"at the limit", strings.TrimSuffix(atLimit, "\n"), atLimit, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := newRawRequests()
			tap := newLineTap(strings.NewReader(tt.line+"\n"+next), raw, slog.New(slog.DiscardHandler), func(error) {})
			var out strings.Builder
			held := 0
			p := make([]byte, 32<<10)
			for {
				n, err := tap.Read(p)
				out.Write(p[:n])
				held = max(held, cap(tap.line), len(tap.out))
				if err != nil {
					break
				}
			}
			if held > link.MaxMessage+margin {
				t.Errorf("held %d bytes of the line; at most %d", held, link.MaxMessage+margin)
			}
			if want := tt.want + next; out.String() != want {
				t.Errorf("passed on %.200q, want %.200q", out.String(), want)
			}
			if tt.refused != "" {
				if got, ok := raw.take(tt.refused); !ok || got.refused == nil || !strings.Contains(got.refused.Message, "MB") {
					t.Errorf("kept %+v (%v) for %s", got, ok, tt.refused)
				}
			}
			if n := raw.len(); n != 0 {
				t.Errorf("%d more requests kept", n)
			}
		})
	}
}

// BenchmarkLineTapOversized measures reading a line over link.MaxMessage,
// which the tap scans a byte at a time for its envelope.
func BenchmarkLineTapOversized(b *testing.B) {
	line := `{"jsonrpc":"2.0","result":{"text":"` + strings.Repeat("x", 2*link.MaxMessage) + `"},"id":1}` + "\n"
	b.SetBytes(int64(len(line)))
	p := make([]byte, 32<<10)
	for b.Loop() {
		tap := newLineTap(strings.NewReader(line), newRawRequests(), slog.New(slog.DiscardHandler), func(error) {})
		for {
			if _, err := tap.Read(p); err != nil {
				break
			}
		}
	}
}
