package wire

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
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
		`{"message":"` + strings.Repeat("x", MaxMessage) + `"}`,
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

// TestLineTapPassesLongResults checks that a line longer than MaxMessage
// that is not an elicitation, such as a tool's large result, passes whole.
func TestLineTapPassesLongResults(t *testing.T) {
	result := `{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("r", MaxMessage) + `"}}` + "\n"
	tap := newLineTap(strings.NewReader(result), newRawRequests(), slog.New(slog.DiscardHandler), func(error) {})
	got, err := io.ReadAll(tap)
	if err != nil || string(got) != result {
		t.Fatalf("passed %d of %d bytes (%v)", len(got), len(result), err)
	}
}
